import * as path from 'node:path';
import { FileSystemReader, GitUserConfig } from '../ports';
import { GitignoreRules, ignoredAfter, parseGitignore } from './gitignoreRules';
import { userExcludesFile } from './gitUserExcludes';
import { readRuleFileText } from './ruleFileText';

/** A `.gitignore` that applies in a directory, and that directory's path relative to it (with `/`, or '' to test names alone). */
export interface RuleFile {
	readonly rules: GitignoreRules;
	prefix: string;
}

/**
 * The rules of a folder's repository that lie outside the folder, in git's order (later ones
 * win), each with the folder's path relative to it: the user's global excludes file (with
 * `gitUser`: `core.excludesFile`, or git's default), the repository's `.git/info/exclude`, then,
 * for a repository's subfolder opened alone, the `.gitignore` files from the repository's top
 * (the first directory up from the folder's real path with a `.git`) down to the folder's
 * parent. None when no repository holds the folder, or when these rules ignore the folder
 * itself: someone who opens a folder git ignores, such as a build output, means to see it.
 */
export async function readRepositoryRules(reader: FileSystemReader, folderPath: string, gitUser?: GitUserConfig): Promise<RuleFile[]> {
	const real = await reader.realpath(folderPath);
	/** The folder's path relative to a directory at or above it, with its `/` ('' for itself). */
	const prefixFrom = (dir: string) => (dir === real ? '' : `${path.relative(dir, real).split(path.sep).join('/')}/`);
	const found: RuleFile[] = [];
	let top = real;
	while (!await exists(reader, path.join(top, '.git'))) {
		const parent = path.dirname(top);
		if (parent === top) {
			return []; // in no repository: git reads none of these
		}
		const rules = parseGitignore(await readRuleFileText(reader, path.join(parent, '.gitignore')));
		if (rules) {
			found.unshift({ rules, prefix: prefixFrom(parent) });
		}
		top = parent;
	}
	// A `.git` file (a worktree, a submodule) has no `info/` here: nothing is read.
	const exclude = parseGitignore(await readRuleFileText(reader, path.join(top, '.git', 'info', 'exclude')));
	if (exclude) {
		found.unshift({ rules: exclude, prefix: prefixFrom(top) });
	}
	const userExcludes = gitUser && await userExcludesFile(reader, gitUser, top);
	const user = userExcludes ? parseGitignore(await readRuleFileText(reader, userExcludes)) : null;
	if (user) {
		found.unshift({ rules: user, prefix: prefixFrom(top) });
	}
	return folderIgnored(found) ? [] : found;
}

/**
 * Whether `found` ignore the folder they were read for: git ignores it when they ignore it or any
 * directory between it and the repository's top. Each is asked, top down, about every directory
 * below its own, with the rules of the files above that directory deciding in git's order.
 */
function folderIgnored(found: readonly RuleFile[]): boolean {
	const segments = found.map(({ prefix }) => prefix.split('/').slice(0, -1));
	const depth = Math.max(0, ...segments.map(s => s.length));
	// `up`: how many directories above the folder (0 for the folder itself).
	for (let up = depth - 1; up >= 0; up--) {
		let ignored = false;
		found.forEach(({ rules }, i) => {
			const within = segments[i].length - up;
			if (within > 0) {
				ignored = ignoredAfter(ignored, rules.test(`${segments[i].slice(0, within).join('/')}/`));
			}
		});
		if (ignored) {
			return true;
		}
	}
	return false;
}

async function exists(reader: FileSystemReader, filePath: string): Promise<boolean> {
	try {
		await reader.lstat(filePath);
		return true;
	} catch {
		return false;
	}
}
