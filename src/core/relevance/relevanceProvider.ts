import * as path from 'node:path';
import { Emitter, Event } from '../../common/event';
import { Disposable, IDisposable, nothingToDispose } from '../../common/lifecycle';
import { RELEVANT_URI } from '../../common/wellKnownUris';
import { DiagnosticsSource } from '../diagnostics/ports';
import { ResourceNotFound } from '../errors';
import { GitSource } from '../git/ports';
import { JSON_MIME } from '../mime';
import { Completion, ResourceAnnotator, ResourceChange, ResourceContent, ResourceEntry, ResourceProvider, TemplateEntry } from '../resource';
import { Throttle } from '../throttle';
import { ownIfDisposable, WorkspaceScope } from '../workspaceScope';
import { GitChangeSignals } from './gitChangeSignals';
import { locateFile } from './locatedPaths';
import { EditorSignals, FileTouch } from './ports';
import { BASE_PRIORITY, countProblems, FileSignals, MAX_CANDIDATES, priorityFor, TimelessRanks } from './ranking';
import { withPriority } from './withPriority';

/** Files the relevance resource returns. */
export const RELEVANT_TOP = 20;
/** Recently touched files remembered; older ones are forgotten first. */
const MAX_TOUCHED = 200;

export interface RelevancePorts {
	readonly scope: WorkspaceScope;
	/** Editor state; absent headless. */
	readonly editor?: EditorSignals;
	/** Edits and saves (editor) or writes on disk (headless). */
	readonly touches: Event<readonly FileTouch[]>;
	readonly diagnostics?: DiagnosticsSource;
	readonly git?: GitSource;
	readonly now?: () => number;
}

export interface RelevanceOptions {
	/** Shortest gap between two re-rankings (and so between two `updated` notifications). */
	readonly throttleMs: number;
	/** Shortest gap between two git status reads after the repository changed. */
	readonly gitThrottleMs: number;
}

interface RankedFile {
	readonly uri: string;
	readonly display: string;
	readonly score: number;
	readonly priority: number;
	readonly reasons: readonly string[];
}

/**
 * "What matters now": ranks files by live signals (editor state, recent edits and saves,
 * problems, git changes) into `context://relevant` (the top files with their reasons,
 * notified when the order or a reason changes) and into `annotations.priority` on every listed file.
 * Signals only mark the ranking stale; it is recomputed at most once per `throttleMs`, over the
 * few files that have a signal, never by scanning the workspace.
 */
export class RelevanceProvider extends Disposable implements ResourceProvider, ResourceAnnotator {
	readonly id = 'relevance';
	readonly summary = `what matters now (${RELEVANT_URI}: the files to look at first, ranked, with reasons)`;
	private readonly changeEmitter = this._register(new Emitter<ResourceChange>());
	readonly onDidChange = this.changeEmitter.event;
	private readonly touched = new Map<string, { edited?: number; saved?: number; written?: number }>();
	private ranked: readonly RankedFile[] = [];
	private priorities = new Map<string, number>();
	/** The lengths of the URIs in `priorities`: a URI of another length has the base priority. */
	private rankedUriLengths = new Set<number>();
	private stale = true;
	private lastTop = '';
	private readonly rerank: Throttle;
	private readonly git: GitChangeSignals;
	private readonly now: () => number;
	private readonly timeless = new TimelessRanks();

	constructor(private readonly ports: RelevancePorts, options: RelevanceOptions = { throttleMs: 500, gitThrottleMs: 1000 }) {
		super();
		this.now = ports.now ?? Date.now;
		this.rerank = this._register(new Throttle(options.throttleMs, () => this.rerankAndNotify()));
		const changed = () => {
			this.stale = true;
			this.rerank.trigger();
		};
		this.git = this._register(new GitChangeSignals(ports.git, ports.scope, options.gitThrottleMs, changed));
		this._register(ports.touches(touches => {
			const at = this.now();
			/** Paths that went in this batch, and the position of the last time each did. */
			const goneAt = new Map<string, number>();
			/** Paths touched in this batch, and the position of the last touch. */
			const touchedAt = new Map<string, number>();
			touches.forEach((touch, i) => {
				if (touch.kind === 'gone') {
					this.touched.delete(touch.path);
					goneAt.set(touch.path, i);
					return;
				}
				const entry = this.touched.get(touch.path) ?? {};
				this.touched.delete(touch.path); // re-inserted last: the Map's order is recency
				this.touched.set(touch.path, { ...entry, [touch.kind]: at });
				touchedAt.set(touch.path, i);
			});
			if (goneAt.size > 0) {
				this.forgetBelow(goneAt, touchedAt);
			}
			while (this.touched.size > MAX_TOUCHED) {
				this.touched.delete(this.touched.keys().next().value!);
			}
			changed();
		}));
		if (ports.editor) {
			ownIfDisposable(ports.editor, d => this._register(d));
			this._register(ports.editor.onDidChange(changed));
		}
		if (ports.diagnostics) {
			this._register(ports.diagnostics.onDidChange(changed));
		}
		this._register(ports.scope.onDidChange(() => {
			this.git.scopeChanged();
			changed();
		}));
		// Until the rule is loaded nothing can be judged served, so nothing ranks: rank again then.
		ports.scope.ready().then(changed, () => undefined);
	}

	ready(): Promise<void> {
		return this.ports.scope.ready();
	}

	handles(uri: string): boolean {
		return /^context:/i.test(uri);
	}

	list(): readonly ResourceEntry[] {
		this.git.start();
		return [{
			uri: RELEVANT_URI, name: 'relevant now', title: 'Relevant now',
			description: `The ${RELEVANT_TOP} files that matter most right now (active and visible editors, recent edits, problems, git changes), ranked, each with its reasons. Subscribe to hear when the ranking changes.`,
			mimeType: JSON_MIME, annotations: { priority: 1, audience: ['assistant', 'user'] },
		}];
	}

	templates(): readonly TemplateEntry[] {
		return [];
	}

	async read(uri: string): Promise<ResourceContent[]> {
		if (uri !== RELEVANT_URI) {
			throw new ResourceNotFound(uri);
		}
		await Promise.all([this.ports.scope.ready(), this.git.startAndWait()]);
		const top = this.current().slice(0, RELEVANT_TOP);
		const body = {
			files: top.map(f => ({ file: f.display, uri: f.uri, priority: f.priority, score: f.score, reasons: f.reasons })),
			...(top.length === 0 ? { note: 'Nothing stands out: no file is open, edited, broken or changed in git.' } : {}),
		};
		return [{ uri, mimeType: JSON_MIME, text: JSON.stringify(body, null, 2) }];
	}

	async subscribe(uri: string): Promise<IDisposable> {
		if (uri !== RELEVANT_URI) {
			throw new ResourceNotFound(uri);
		}
		this.git.start();
		return nothingToDispose;
	}

	async complete(): Promise<Completion | undefined> {
		return undefined;
	}

	/**
	 * Every listed file of a page gets its live priority (files nothing points at get the base
	 * one). Only a URI of a length some ranked file has is looked up: hashing a page's thousand
	 * fresh URIs cost about a seventh of building the page, for the few files that are ranked.
	 */
	annotate(entries: ResourceEntry[]): void {
		this.git.start();
		if (this.stale) {
			this.current();
		}
		const { priorities, rankedUriLengths } = this;
		for (let i = 0; i < entries.length; i++) {
			const entry = entries[i];
			const { uri } = entry;
			if (uri.startsWith('file:')) {
				entries[i] = withPriority(entry, rankedUriLengths.has(uri.length) ? priorities.get(uri) ?? BASE_PRIORITY : BASE_PRIORITY);
			}
		}
	}

	/** Resolves once git's first read is in the ranking, as `read` waits for it. */
	async whenRanked(): Promise<void> {
		await this.git.startAndWait();
	}

	/** The URIs of the ranked files, most relevant first (search answers list them first). */
	rankedUris(): readonly string[] {
		this.git.start();
		return this.current().map(r => r.uri);
	}

	/** The ranking `annotate` applies (its map is replaced on every re-ranking), or undefined while stale. */
	annotationState(): object | undefined {
		return this.stale ? undefined : this.priorities;
	}

	/** The ranking, recomputed first when a signal arrived since the last time. */
	private current(): readonly RankedFile[] {
		if (!this.stale) {
			return this.ranked;
		}
		this.stale = false;
		const now = this.now();
		const signals = new Map<string, FileSignals>();
		const at = (p: string) => {
			let s = signals.get(p);
			if (!s) {
				if (signals.size >= MAX_CANDIDATES) {
					return undefined;
				}
				s = {};
				signals.set(p, s);
			}
			return s;
		};
		const editor = this.ports.editor;
		if (editor) {
			const active = editor.activeFile();
			if (active) {
				at(active)!.active = true;
			}
			editor.visibleFiles().forEach(p => { const s = at(p); if (s) { s.visible = true; } });
			editor.openFiles().forEach(p => { const s = at(p); if (s) { s.openInTab = true; } });
		}
		for (const [p, t] of this.touched) {
			const s = at(p);
			if (s) {
				Object.assign(s, t);
			}
		}
		for (const [p, problems] of this.ports.diagnostics?.all() ?? []) {
			const counts = countProblems(problems.map(x => x.severity));
			if (counts.errors + counts.warnings > 0) {
				const s = at(p);
				if (s) {
					Object.assign(s, counts);
				}
			}
		}
		for (const [p, kind] of this.git.changes) {
			const s = at(p);
			if (s) {
				s.git = kind;
			}
		}
		const ranked: RankedFile[] = [];
		for (const [p, s] of signals) {
			// Only what the one rule serves is ranked, named or given a priority. Git's files were
			// located when git was read (again when the rule changes); the few others now.
			const known = this.git.located.get(p);
			const located = known !== undefined ? known : locateFile(this.ports.scope, p);
			if (!located) {
				continue;
			}
			const { score, reasons } = this.timeless.rank(s, now);
			if (score > 0) {
				ranked.push({ uri: located.uri, display: located.scoped.display, score, priority: priorityFor(score), reasons });
			}
		}
		ranked.sort((a, b) => b.score - a.score || (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
		this.ranked = ranked;
		this.priorities = new Map(ranked.map(r => [r.uri, r.priority]));
		this.rankedUriLengths = new Set(ranked.map(r => r.uri.length));
		return ranked;
	}

	/**
	 * Forgets what was touched below a directory that went (`goneAt`, by position in the batch),
	 * unless it was touched again after that in the same batch (`touchedAt`). One pass over what
	 * is remembered, looking up each path's folders: a branch switch reports thousands of paths
	 * gone, and a scan of everything remembered for each of them held the event loop too long.
	 */
	private forgetBelow(goneAt: ReadonlyMap<string, number>, touchedAt: ReadonlyMap<string, number>): void {
		for (const touchedPath of [...this.touched.keys()]) {
			const since = touchedAt.get(touchedPath) ?? -1;
			for (let dir = path.dirname(touchedPath), up = path.dirname(dir); ; dir = up, up = path.dirname(dir)) {
				if ((goneAt.get(dir) ?? -1) > since) {
					this.touched.delete(touchedPath);
					break;
				}
				if (up === dir) {
					break; // the root
				}
			}
		}
	}

	private rerankAndNotify(): void {
		const key = topKey(this.current());
		if (key !== this.lastTop) {
			this.lastTop = key;
			this.changeEmitter.fire({ updated: [RELEVANT_URI], listChanged: false });
		}
	}
}

/**
 * What a reader of context://relevant would see change: the order, and each file's reasons
 * (a file becoming the active editor while already first is news too). How long ago something
 * happened is left out, or the resource would change every second.
 */
function topKey(ranked: readonly RankedFile[]): string {
	return ranked.slice(0, RELEVANT_TOP).map(r => `${r.uri} ${r.reasons.map(reason => reason.replace(/ \d+ (s|min|h) ago$/, '')).join(',')}`).join('\n');
}
