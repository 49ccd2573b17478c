import { anyMatches, Wildmatch } from './wildmatch';

/**
 * Longest exclude pattern compiled; a longer one fails closed. No path is this long (Linux's
 * `PATH_MAX` is 4,096), and a pattern of 65,536 characters once made the matcher throw and the
 * whole walk stop.
 */
export const MAX_EXCLUDE_LENGTH = 16_384;
/** Most patterns one exclude pattern's braces may expand to; more fails closed (`{a,b}{c,d}...` doubles with each group). */
export const MAX_BRACE_EXPANSIONS = 1024;

/**
 * The `exclude` settings (`files.exclude` keys and `mcpResources.exclude`), in VS Code's glob
 * syntax: matched against the whole path relative to the folder, case-sensitively; `*` and `?`
 * stay within a segment, `**` between slashes spans any number of segments (none included),
 * `{a,b}` alternatives, `[a-z]` and `[!a-z]` classes, `\` escapes. `dir/**` also matches `dir`
 * itself. Matched by git's algorithm (`Wildmatch`), in time proportional to pattern times path.
 * A pattern that cannot be compiled (too long, too many alternatives) fails closed: it
 * matches every path, with a warning, so nothing it meant to hide is served.
 */
export class ExcludeGlobs {
	/** Names a `**\/name` pattern excludes wherever they are. */
	private readonly names = new Set<string>();
	/** Other single-segment globs under `**\/`, matched against the last segment. */
	private readonly nameGlobs: Wildmatch[] = [];
	/** Everything else, matched against the whole path. */
	private readonly pathGlobs: Wildmatch[] = [];
	/** Some pattern could not be compiled: every path is excluded. */
	readonly failedClosed: boolean;

	constructor(patterns: readonly string[], warn: (message: string) => void) {
		let failed = false;
		for (const pattern of patterns) {
			const expanded = pattern.length > MAX_EXCLUDE_LENGTH ? undefined : expandBraces(pattern);
			if (!expanded) {
				failed = true;
				// JSON: a folder's pattern may hold line breaks that would pass for log lines of their own.
				warn(`exclude pattern ${JSON.stringify(pattern.slice(0, 60))}${pattern.length > 60 ? '...' : ''} (${pattern.length} characters) cannot be used: it is over ${MAX_EXCLUDE_LENGTH} characters or expands to over ${MAX_BRACE_EXPANSIONS} patterns. Nothing is served until it is fixed.`);
				continue;
			}
			for (const glob of expanded) {
				this.add(glob);
				if (glob.endsWith('/**') && glob.length > 3) {
					this.add(glob.slice(0, -3));
				}
			}
		}
		this.failedClosed = failed;
	}

	private add(glob: string): void {
		const options = { pathname: true, caseFold: false, unclosedClassIsLiteral: true };
		const name = glob.startsWith('**/') ? glob.slice(3) : undefined;
		if (name !== undefined && name !== '' && !name.includes('/') && !name.includes('**')) {
			// `**\/` matches nothing or any directories, and the rest cannot match a `/`: the glob is about the last segment.
			if (/[*?[\\]/.test(name)) {
				this.nameGlobs.push(Wildmatch.compile(name, options));
			} else {
				this.names.add(name);
			}
		} else {
			this.pathGlobs.push(Wildmatch.compile(glob, options));
		}
	}

	/** Whether any pattern matches the path (relative to its folder, `/`-separated). */
	matches(rel: string): boolean {
		const slash = rel.lastIndexOf('/');
		return this.matchesIn(rel.slice(0, slash + 1), rel.slice(slash + 1));
	}

	/** `matches` for `name` in the directory whose relative path (with its `/`) is `dirPrefix`. */
	matchesIn(dirPrefix: string, name: string): boolean {
		if (this.failedClosed || this.names.has(name)) {
			return true;
		}
		return anyMatches(this.nameGlobs, name) || anyMatches(this.pathGlobs, dirPrefix + name);
	}
}

/**
 * The patterns `glob`'s `{a,b}` groups stand for (nested groups too; `\{` is literal, as is a
 * `{` never closed); undefined when they are more than `MAX_BRACE_EXPANSIONS`.
 */
export function expandBraces(glob: string): string[] | undefined {
	const out: string[] = [];
	const pending = [glob];
	while (pending.length > 0) {
		const current = pending.pop()!;
		const group = firstGroup(current);
		if (!group) {
			out.push(current);
			if (out.length > MAX_BRACE_EXPANSIONS) {
				return undefined;
			}
			continue;
		}
		const head = current.slice(0, group.open);
		const tail = current.slice(group.close + 1);
		for (let i = group.alternatives.length - 1; i >= 0; i--) {
			pending.push(head + group.alternatives[i] + tail);
		}
		if (pending.length + out.length > MAX_BRACE_EXPANSIONS) {
			return undefined;
		}
	}
	return out;
}

/** The first `{...}` group that closes: where it opens and closes, and its top-level alternatives. */
function firstGroup(glob: string): { open: number; close: number; alternatives: string[] } | undefined {
	for (let open = 0; open < glob.length; open++) {
		if (glob[open] === '\\') {
			open++;
			continue;
		}
		if (glob[open] !== '{') {
			continue;
		}
		const alternatives: string[] = [];
		let depth = 0;
		let from = open + 1;
		for (let i = open + 1; i < glob.length; i++) {
			const c = glob[i];
			if (c === '\\') {
				i++;
			} else if (c === '{') {
				depth++;
			} else if (c === '}' && depth > 0) {
				depth--;
			} else if (c === ',' && depth === 0) {
				alternatives.push(glob.slice(from, i));
				from = i + 1;
			} else if (c === '}') {
				alternatives.push(glob.slice(from, i));
				return { open, close: i, alternatives };
			}
		}
		return undefined; // never closed: the rest is literal
	}
	return undefined;
}
