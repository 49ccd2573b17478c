import { matchCompletion } from '../completions';
import { Completion } from '../resource';
import { GIT_DIFF_TEMPLATE, GIT_LOG_LIMIT, GIT_SHOW_TEMPLATE } from './gitUris';
import { GitRepository } from './ports';

/** A repository as the git provider lists it: under its URI name. */
export interface RepoEntry {
	readonly name: string;
	readonly repo: GitRepository;
}

const NONE: Completion = { values: [], total: 0, hasMore: false };

/**
 * Completion for the git templates' arguments: `repo` from the listed names; a per-path diff's
 * `path` from the paths git reports changed that `isServed` lets through (the rest would only be
 * refused on read); a commit's `ref` from HEAD, the refs and the log's recent commits.
 */
export async function completeGitTemplate(
	repos: readonly RepoEntry[], uriTemplate: string, argument: string, value: string, context: Readonly<Record<string, string>>,
	isServed: (entry: RepoEntry, repoPath: string) => Promise<boolean>,
): Promise<Completion | undefined> {
	if (argument === 'repo') {
		return matchCompletion(repos.map(r => r.name), value);
	}
	const entry = repos.find(r => r.name === context.repo) ?? (repos.length === 1 ? repos[0] : undefined);
	if (uriTemplate === GIT_DIFF_TEMPLATE && argument === 'path') {
		if (!entry) {
			return NONE;
		}
		const status = await entry.repo.status();
		const paths = new Set<string>();
		for (const change of [...status.staged, ...status.unstaged, ...status.conflicts]) {
			paths.add(change.path);
		}
		const served: string[] = [];
		for (const p of [...paths].sort()) {
			if (await isServed(entry, p)) {
				served.push(p);
			}
		}
		return matchCompletion(served, value.replace(/^\/+/, ''));
	}
	if (uriTemplate === GIT_SHOW_TEMPLATE && argument === 'ref') {
		if (!entry) {
			return NONE;
		}
		const [refs, commits] = await Promise.all([entry.repo.refs(), entry.repo.log(GIT_LOG_LIMIT).catch(() => [])]);
		// HEAD only once it names a commit: in a repository without one it does not read.
		const names = [...(commits.length > 0 ? ['HEAD'] : []), ...refs.map(r => r.name), ...commits.map(c => c.hash.slice(0, 12))];
		return matchCompletion([...new Set(names)], value);
	}
	return undefined;
}
