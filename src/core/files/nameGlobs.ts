import picomatch from 'picomatch';

/**
 * One test for a list of file-name globs (`.gitignore` syntax for a single segment, any case),
 * made for the index's hot path, where it runs once per file of the workspace: plain names are
 * one set lookup, `*.ext` and `prefix*` globs a few string comparisons, and only what is left
 * goes to a single regular expression (picomatch's, all alternatives in one).
 */
export function nameGlobs(globs: readonly string[]): (name: string) => boolean {
	const exact = new Set<string>();
	const suffixes: string[] = [];
	const prefixes: string[] = [];
	const rest: string[] = [];
	for (const glob of globs) {
		const lower = glob.toLowerCase();
		if (!/[*?[\]\\{}()!+@]/.test(lower)) {
			exact.add(lower);
		} else if (/^\*[^*?[\]\\{}()!+@]+$/.test(lower)) {
			suffixes.push(lower.slice(1));
		} else if (/^[^*?[\]\\{}()!+@]+\*$/.test(lower)) {
			prefixes.push(lower.slice(0, -1));
		} else {
			rest.push(glob);
		}
	}
	const re = rest.length > 0 ? new RegExp(rest.map(g => picomatch.makeRe(g, { dot: true, nocase: true }).source).join('|'), 'i') : undefined;
	if (exact.size === 0 && suffixes.length === 0 && prefixes.length === 0 && !re) {
		return () => false;
	}
	return name => {
		const lower = name.toLowerCase();
		if (exact.has(lower)) {
			return true;
		}
		for (const suffix of suffixes) {
			if (lower.endsWith(suffix)) {
				return true;
			}
		}
		for (const prefix of prefixes) {
			if (lower.startsWith(prefix)) {
				return true;
			}
		}
		return re !== undefined && re.test(name);
	};
}
