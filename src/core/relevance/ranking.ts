import { ProblemSeverity } from '../diagnostics/ports';
import { GitFileStatus } from '../git/ports';

/** Every signal known about one file. */
export interface FileSignals {
	active?: boolean;
	visible?: boolean;
	openInTab?: boolean;
	/** When the file was last typed into, saved, or written on disk (ms since epoch). */
	edited?: number;
	saved?: number;
	written?: number;
	errors?: number;
	warnings?: number;
	/** Where git sees the file changed. */
	git?: GitChangeKind;
}

export type GitChangeKind = 'conflicted' | 'staged' | 'modified' | 'untracked';

/** Files ranked at most (problems or git changes can name thousands): the rest keep the base priority. */
export const MAX_CANDIDATES = 5_000;

/**
 * How much each signal adds to a file's score. Editor state says what the user looks at now;
 * recent edits what they work on (decaying with a half-life); problems and git what is unfinished.
 * Documented in the README ("Relevance"); change both together.
 */
export const WEIGHTS = {
	active: 1.0,
	visible: 0.5,
	openInTab: 0.2,
	edited: 0.9,
	saved: 0.6,
	written: 0.6,
	errors: 0.6,
	warnings: 0.25,
	git: { conflicted: 0.7, staged: 0.35, modified: 0.35, untracked: 0.25 } as Record<GitChangeKind, number>,
	/** Minutes after which an edit, save or write counts half. */
	recencyHalfLifeMinutes: 10,
} as const;

/** The priority of a file with no signal at all (annotations.priority runs from 0 to 1). */
export const BASE_PRIORITY = 0.2;

export interface Ranked {
	readonly score: number;
	readonly reasons: string[];
}

/** A file's score and the reasons for it, in the order of their weight. */
export function rank(signals: FileSignals, now: number): Ranked {
	const parts: { weight: number; reason: string }[] = [];
	if (signals.active) {
		parts.push({ weight: WEIGHTS.active, reason: 'active editor' });
	} else if (signals.visible) {
		parts.push({ weight: WEIGHTS.visible, reason: 'visible editor' });
	} else if (signals.openInTab) {
		parts.push({ weight: WEIGHTS.openInTab, reason: 'open in a tab' });
	}
	const recent = (at: number | undefined, weight: number, verb: string) => {
		if (at !== undefined) {
			const minutes = Math.max(0, now - at) / 60_000;
			parts.push({ weight: weight * Math.pow(0.5, minutes / WEIGHTS.recencyHalfLifeMinutes), reason: `${verb} ${ago(now - at)}` });
		}
	};
	// An unsaved edit after the last save is the stronger signal; a save then covers the edit.
	if (signals.edited !== undefined && (signals.saved === undefined || signals.edited > signals.saved)) {
		recent(signals.edited, WEIGHTS.edited, 'edited (unsaved)');
	}
	recent(signals.saved, WEIGHTS.saved, 'saved');
	recent(signals.written, WEIGHTS.written, 'written');
	if (signals.errors) {
		parts.push({ weight: WEIGHTS.errors, reason: `${signals.errors} error${signals.errors === 1 ? '' : 's'}` });
	} else if (signals.warnings) {
		parts.push({ weight: WEIGHTS.warnings, reason: `${signals.warnings} warning${signals.warnings === 1 ? '' : 's'}` });
	}
	if (signals.git) {
		parts.push({ weight: WEIGHTS.git[signals.git], reason: GIT_REASONS[signals.git] });
	}
	parts.sort((a, b) => b.weight - a.weight);
	return { score: round(parts.reduce((sum, p) => sum + p.weight, 0)), reasons: parts.map(p => p.reason) };
}

/** Distinct time-free signal sets remembered; past it the memo starts again. */
const MAX_TIMELESS = 256;

/**
 * `rank` for the signal sets without a time in them (editor state, problems, git), remembered:
 * in a branch switch thousands of files share the one signal "changed in git", and ranking each
 * again at every re-ranking was the provider's largest cost. Their result cannot depend on `now`.
 */
export class TimelessRanks {
	private readonly memo = new Map<string, Ranked>();

	rank(s: FileSignals, now: number): Ranked {
		if (s.edited !== undefined || s.saved !== undefined || s.written !== undefined) {
			return rank(s, now);
		}
		const key = `${s.active ? 'a' : ''}${s.visible ? 'v' : ''}${s.openInTab ? 't' : ''} ${s.errors ?? ''} ${s.warnings ?? ''} ${s.git ?? ''}`;
		let ranked = this.memo.get(key);
		if (!ranked) {
			if (this.memo.size >= MAX_TIMELESS) {
				this.memo.clear();
			}
			ranked = rank(s, now);
			this.memo.set(key, ranked);
		}
		return ranked;
	}
}

/**
 * annotations.priority for a score: BASE_PRIORITY with no signal, rising towards 1 with
 * diminishing returns (the active file alone is about 0.7; active, edited and broken about 0.95).
 */
export function priorityFor(score: number): number {
	return round(BASE_PRIORITY + (1 - BASE_PRIORITY) * (1 - Math.exp(-score)));
}

/** Worst first: errors, then warnings. */
export function countProblems(severities: readonly ProblemSeverity[]): { errors: number; warnings: number } {
	let errors = 0;
	let warnings = 0;
	for (const s of severities) {
		if (s === 'error') {
			errors++;
		} else if (s === 'warning') {
			warnings++;
		}
	}
	return { errors, warnings };
}

/** The strongest git signal of a path from its statuses in the index and the working tree. */
export function gitChangeKind(area: 'staged' | 'unstaged' | 'untracked' | 'conflicts', status: GitFileStatus): GitChangeKind {
	if (area === 'conflicts' || status === 'conflicted') {
		return 'conflicted';
	}
	return area === 'staged' ? 'staged' : area === 'untracked' ? 'untracked' : 'modified';
}

const GIT_ORDER: readonly GitChangeKind[] = ['conflicted', 'staged', 'modified', 'untracked'];

/** The stronger of two git signals for one path (a file both staged and modified counts once). */
export function strongerGit(a: GitChangeKind | undefined, b: GitChangeKind): GitChangeKind {
	return a === undefined || GIT_ORDER.indexOf(b) < GIT_ORDER.indexOf(a) ? b : a;
}

const GIT_REASONS: Record<GitChangeKind, string> = {
	conflicted: 'merge conflict (git)',
	staged: 'staged (git)',
	modified: 'changed in the working tree (git)',
	untracked: 'new, untracked (git)',
};

function ago(ms: number): string {
	const s = Math.max(0, Math.round(ms / 1000));
	if (s < 60) {
		return `${s} s ago`;
	}
	const m = Math.round(s / 60);
	return m < 60 ? `${m} min ago` : `${Math.round(m / 60)} h ago`;
}

function round(n: number): number {
	return Math.round(n * 1000) / 1000;
}
