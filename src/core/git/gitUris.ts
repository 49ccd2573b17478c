import * as path from 'node:path';
import { InvalidParams, ResourceNotFound } from '../errors';
import { JSON_MIME } from '../mime';
import { ResourceEntry, TemplateEntry } from '../resource';
import { decodePath, encodePath } from '../workspaceScope';

// The git family's URIs: what each repository lists, the templates, and what a URI asks for.

export const GIT_DIFF_TEMPLATE = 'git://{repo}/diff/{+path}';
export const GIT_SHOW_TEMPLATE = 'git://{repo}/show/{ref}';
/** How many commits `/log` shows. */
export const GIT_LOG_LIMIT = 50;
export const DIFF_MIME = 'text/x-diff';
/** A ref as a client may name it: no options, no ranges, no `ref:path`. */
const REF_PATTERN = /^(?![-.])(?!.*\.\.)[A-Za-z0-9._/@{}~^+-]{1,200}$/;

type FixedKind = 'status' | 'diff' | 'staged' | 'log' | 'branches';

/** What a git URI asks for, once its repository is known. */
export type GitRoute =
	| { kind: FixedKind }
	| { kind: 'diffPath'; path: string }
	| { kind: 'show'; ref: string };

/** The resources every repository lists. */
const FIXED: readonly { suffix: string; kind: FixedKind; title: string; description: string; mimeType: string }[] = [
	{ suffix: '/branches', kind: 'branches', title: 'branches', description: 'Local and remote branches and tags, with upstream and ahead/behind.', mimeType: JSON_MIME },
	{ suffix: '/diff', kind: 'diff', title: 'working tree diff', description: 'Unstaged changes (working tree against the index) as a unified diff.', mimeType: DIFF_MIME },
	{ suffix: '/diff/staged', kind: 'staged', title: 'staged diff', description: 'Staged changes (index against HEAD) as a unified diff.', mimeType: DIFF_MIME },
	{ suffix: '/log', kind: 'log', title: 'log', description: `The last ${GIT_LOG_LIMIT} commits of HEAD.`, mimeType: JSON_MIME },
	{ suffix: '/status', kind: 'status', title: 'status', description: 'Branch, upstream, and staged, unstaged, untracked and conflicted paths.', mimeType: JSON_MIME },
];

export const GIT_TEMPLATES: readonly TemplateEntry[] = [
	{
		uriTemplate: GIT_DIFF_TEMPLATE, name: 'git-diff-of-path', title: 'Uncommitted changes of one path',
		description: 'Unified diff of one path (relative to the repository) against HEAD, staged and unstaged together.',
		mimeType: DIFF_MIME,
	},
	{
		uriTemplate: GIT_SHOW_TEMPLATE, name: 'git-commit', title: 'A commit and its patch',
		description: 'A commit by hash, branch or tag: author, date, message and the patch against its first parent.',
		mimeType: DIFF_MIME,
	},
];

/** `git://{repo}/`, the start of every URI of a repository. */
export function repositoryPrefix(repoName: string): string {
	return `git://${encodePath(repoName)}/`;
}

/** The fixed resources of a repository named `repoName`. */
export function repositoryEntries(repoName: string): ResourceEntry[] {
	return FIXED.map(f => ({
		uri: `git://${encodePath(repoName)}${f.suffix}`,
		name: `${repoName} ${f.title}`,
		title: `Git ${f.title} (${repoName})`,
		description: f.description,
		mimeType: f.mimeType,
		annotations: { priority: f.kind === 'status' || f.kind === 'diff' ? 0.6 : 0.4, audience: ['assistant' as const] },
	}));
}

/** The repository name a git URI names, and the rest of its path; undefined when it is not a git URI we could serve. */
export function splitGitUri(uri: string): { repoName: string; rest: string } | undefined {
	const match = /^git:\/\/([^/?#]+)(\/[^?#]*)$/.exec(uri);
	const repoName = match ? decodePath(match[1]) : undefined;
	return match && repoName !== undefined ? { repoName, rest: match[2] } : undefined;
}

/** What the path after the repository (`rest` of {@link splitGitUri}) asks for. */
export function gitRoute(uri: string, rest: string): GitRoute {
	const fixed = FIXED.find(f => f.suffix === rest);
	if (fixed) {
		return { kind: fixed.kind };
	}
	if (rest.startsWith('/diff/')) {
		const rel = decodePath(rest.slice('/diff/'.length));
		// A backslash separates only on Windows; elsewhere it is a name's own character, as for
		// the file's own URI (and git names the path literally: `:(literal)` pathspecs).
		if (rel === undefined || rel.split('/').some(s => s === '' || s === '.' || s === '..' || s.includes('\0') || (path.sep === '\\' && s.includes('\\')))) {
			throw new ResourceNotFound(uri);
		}
		return { kind: 'diffPath', path: rel };
	}
	if (rest.startsWith('/show/')) {
		const ref = decodeRef(rest.slice('/show/'.length));
		if (ref === undefined || !REF_PATTERN.test(ref)) {
			throw new InvalidParams(`Not a usable ref for ${GIT_SHOW_TEMPLATE}: use a commit hash, branch or tag name`);
		}
		return { kind: 'show', ref };
	}
	throw new ResourceNotFound(uri);
}

/**
 * A ref as written in a URI: decoded whole, so that `feature%2Fx` (what a template's `{ref}`
 * makes of `feature/x`) names the branch as `feature/x` does. Unlike a path, whose `%2F` would
 * hide a separator, a ref's slashes are its own characters.
 */
function decodeRef(encoded: string): string | undefined {
	try {
		return decodeURIComponent(encoded);
	} catch {
		return undefined;
	}
}
