import { InvalidParams } from '../errors';
import { expandBraces, MAX_EXCLUDE_LENGTH } from '../files/excludeGlobs';
import { Wildmatch } from '../files/wildmatch';

/**
 * The `glob` of a text search: which workspace-relative paths (as answers show them, the
 * folder's name first in a multi-root workspace) are searched. VS Code's glob syntax, matched
 * by the same linear-time matcher as the exclude settings: `*` and `?` within a segment, `**`
 * across segments, `{a,b}`, `[a-z]`. A pattern without a `/` names files anywhere (`*.ts` is
 * `**\/*.ts`), as VS Code's "files to include" reads it.
 */
export class PathGlobs {
	private readonly globs: Wildmatch[] = [];

	constructor(patterns: readonly string[]) {
		for (const pattern of patterns) {
			const expanded = pattern.length > MAX_EXCLUDE_LENGTH ? undefined : expandBraces(pattern);
			if (!expanded) {
				throw new InvalidParams(`glob "${pattern.slice(0, 60)}" is too long or has too many {,} alternatives: give fewer patterns`);
			}
			for (let glob of expanded) {
				glob = glob.replace(/^\.\//, '');
				const anywhere = !glob.includes('/');
				this.globs.push(Wildmatch.compile(anywhere ? `**/${glob}` : glob, { pathname: true, caseFold: false, unclosedClassIsLiteral: true }));
			}
		}
	}

	/** True when there is no glob at all: every path is searched. */
	get isEmpty(): boolean {
		return this.globs.length === 0;
	}

	/** Whether the path (`/`-separated, relative) is searched. */
	includes(relPath: string): boolean {
		if (this.globs.length === 0) {
			return true;
		}
		for (const glob of this.globs) {
			if (glob.matches(relPath)) {
				return true;
			}
		}
		return false;
	}
}
