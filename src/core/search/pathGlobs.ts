import { InvalidParams } from '../errors';
import { expandBraces, MAX_EXCLUDE_LENGTH } from '../files/excludeGlobs';
import { Wildmatch } from '../files/wildmatch';

/**
 * The `glob` of a text search: which workspace-relative paths (as answers show them, the
 * folder's name first in a multi-root workspace) are searched. VS Code's glob syntax, matched
 * by the same linear-time matcher as the exclude settings: `*` and `?` within a segment, `**`
 * across segments, `{a,b}`, `[a-z]`. A pattern without a `/` names files anywhere (`*.ts` is
 * `**\/*.ts`), as VS Code's "files to include" reads it; an unclosed `[` or `{` is itself. A
 * pattern that could only ever match nothing, or that looks like an exclusion, is refused with
 * why: an empty answer would read as "no file holds it".
 */
export class PathGlobs {
	private readonly globs: Wildmatch[] = [];

	constructor(patterns: readonly string[]) {
		for (const pattern of patterns) {
			refuseUnmatchable(pattern);
			const expanded = pattern.length > MAX_EXCLUDE_LENGTH ? undefined : expandBraces(pattern);
			if (!expanded) {
				throw new InvalidParams(`glob "${pattern.slice(0, 60)}" is too long or has too many {,} alternatives: give fewer patterns`);
			}
			for (let glob of expanded) {
				glob = glob.replace(/^\.\//, '');
				const anywhere = !glob.includes('/');
				const compiled = Wildmatch.compile(anywhere ? `**/${glob}` : glob, { pathname: true, caseFold: false, unclosedClassIsLiteral: true });
				// The matcher's own verdict: with unclosed classes literal and the length checked
				// above, what it never matches is a pattern ending in an escape with nothing to escape.
				if (compiled.never) {
					throw new InvalidParams(`glob "${pattern.slice(0, 60)}" ends with a lone \\: write \\\\ for a backslash, or leave it out`);
				}
				this.globs.push(compiled);
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

/** Throws InvalidParams for a glob that cannot mean what its writer meant (see `PathGlobs`). */
function refuseUnmatchable(pattern: string): void {
	const shown = pattern.slice(0, 60);
	if (pattern.startsWith('!')) {
		throw new InvalidParams(`glob "${shown}" starts with "!": glob names the paths to search and excludes nothing; name the folders or files to search instead`);
	}
	for (const [, body] of pattern.matchAll(/\[!?\^?(\]?[^\]]*)\]/g)) {
		for (const [range, from, to] of body.matchAll(/(.)-(.)/gu)) {
			if (from.codePointAt(0)! > to.codePointAt(0)!) {
				throw new InvalidParams(`glob "${shown}" has the range [${range}], whose end comes before its start: write [${to}-${from}]`);
			}
		}
	}
}
