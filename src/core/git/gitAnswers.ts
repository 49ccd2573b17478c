import { formatBytes } from '../errors';
import { filterDiff } from './diffFilter';
import { fitJson, MAX_ANSWER_BYTES } from '../answerBudget';
import { GitCommit, GitFileChange, GitRef, GitStatus, GitText } from './ports';
import { GIT_LOG_LIMIT } from './gitUris';
import { withoutTrailing } from '../trailing';

// What git state looks like to a client, with paths that are not served left out.

/** Most changed paths `/status` lists per group. */
export const GIT_STATUS_LIMIT = 1000;

/** Whether the files provider would serve a repository-relative path. */
export type IsServed = (repoPath: string) => Promise<boolean>;

export async function statusAnswer(repoName: string, status: GitStatus, isServed: IsServed): Promise<unknown> {
	let hidden = 0;
	const keep = async (changes: readonly GitFileChange[]) => {
		const out: GitFileChange[] = [];
		for (const change of changes) {
			const ok = await isServed(change.path) && (change.originalPath === undefined || await isServed(change.originalPath));
			if (!ok) {
				hidden++;
			} else if (out.length < GIT_STATUS_LIMIT) {
				out.push(change);
			}
		}
		return out;
	};
	const staged = await keep(status.staged);
	const unstaged = await keep(status.unstaged);
	const untracked = await keep(status.untracked);
	const conflicts = await keep(status.conflicts);
	return {
		repo: repoName,
		branch: status.branch ?? null,
		detached: status.branch === undefined && status.commit !== undefined,
		commit: status.commit ?? null,
		upstream: status.upstream ?? null,
		ahead: status.ahead ?? 0,
		behind: status.behind ?? 0,
		staged, unstaged, untracked, conflicts,
		...(hidden > 0 ? { hidden, hiddenReason: 'paths not served (secrets, ignored or outside the workspace) are left out' } : {}),
	};
}

export function logAnswer(repoName: string, commits: readonly GitCommit[]): unknown {
	return { repo: repoName, limit: GIT_LOG_LIMIT, commits: commits.map(commitJson) };
}

export function branchesAnswer(repoName: string, refs: readonly GitRef[], status: GitStatus | undefined): unknown {
	return {
		repo: repoName,
		current: status?.branch ?? null,
		branches: refs.filter(r => r.kind === 'branch'),
		remotes: refs.filter(r => r.kind === 'remote'),
		tags: refs.filter(r => r.kind === 'tag'),
	};
}

/** Bytes of an answer's budget kept for the notes after a cut diff. */
const NOTES_ROOM = 4096;

export interface DiffLimits {
	readonly maxBytes: number;
	/** Where the user changes `maxBytes`, named when a diff is cut. */
	readonly maxBytesSetting: string;
	/** Where to read one file's diff instead, named when a diff is cut. */
	readonly perFileTemplate: string;
}

/** A diff without the files that are not served, cut at the size cap, with notes saying what is missing. */
export async function renderDiff(result: GitText, header: string, limits: DiffLimits, isServed: IsServed): Promise<string> {
	const { text, hidden, unreadable } = await filterDiff(result.text, isServed);
	let out = header + text;
	const notes: string[] = [];
	if (unreadable) {
		notes.push('git\'s output is not shown where it was not a plain unified diff (an external diff tool or colours set in git\'s config)');
	}
	if (hidden > 0) {
		notes.push(`${hidden} file${hidden === 1 ? '' : 's'} not shown: not served (secrets, ignored or outside the workspace)`);
	}
	if (result.truncated || Buffer.byteLength(out) > limits.maxBytes) {
		out = out.slice(0, limits.maxBytes);
		notes.push(`diff truncated at ${formatBytes(limits.maxBytes)} (the ${limits.maxBytesSetting} limit); read ${limits.perFileTemplate} per file`);
	}
	// Whatever the setting says, one answer stays within what a stdio client takes in one message
	// (the notes' few hundred bytes come on top of the room left for them).
	const fit = fitJson(out, 0, out.length, MAX_ANSWER_BYTES - NOTES_ROOM);
	if (fit.end < out.length) {
		out = out.slice(0, fit.end);
		notes.push(`diff cut at ${formatBytes(MAX_ANSWER_BYTES - NOTES_ROOM)} as JSON text, the most one answer holds whatever ${limits.maxBytesSetting} says; read ${limits.perFileTemplate} per file`);
	}
	if (notes.length > 0) {
		out += (out === '' || out.endsWith('\n') ? '' : '\n') + notes.map(n => `# ${n}\n`).join('');
	}
	return out;
}

function commitJson(c: GitCommit): Record<string, unknown> {
	const [subject, ...body] = c.message.split('\n');
	return {
		hash: c.hash,
		parents: c.parents,
		author: c.authorName ?? null,
		email: c.authorEmail ?? null,
		date: c.authorDate ?? null,
		subject,
		...(body.join('\n').trim() ? { body: body.join('\n').trim() } : {}),
	};
}

/** A commit's header as `git show` prints it, before its patch. */
export function commitHeader(c: GitCommit): string {
	const lines = [`commit ${c.hash}`];
	if (c.parents.length > 1) {
		lines.push(`Merge: ${c.parents.map(p => p.slice(0, 12)).join(' ')}`);
	}
	if (c.authorName !== undefined) {
		lines.push(`Author: ${c.authorName}${c.authorEmail ? ` <${c.authorEmail}>` : ''}`);
	}
	if (c.authorDate !== undefined) {
		lines.push(`Date:   ${c.authorDate}`);
	}
	lines.push('', ...withoutTrailing(c.message, '\n').split('\n').map(l => `    ${l}`), '', '');
	return lines.join('\n');
}
