import picomatch from 'picomatch';

/**
 * One test for a list of file-name globs (`.gitignore` syntax for a single segment, any case),
 * made for the index's hot path, where it runs once per file of the workspace: plain names are
 * one set lookup, `*.ext` and `prefix*` globs a lookup by the name's extension or first letter
 * and a comparison or two, and only what is left goes to a single regular expression
 * (picomatch's, all alternatives in one).
 */
export function nameGlobs(globs: readonly string[]): (name: string) => boolean {
	const exact = new Set<string>();
	const suffixes = new Map<string, string[]>();
	const undotted: string[] = [];
	const prefixes = new Map<string, string[]>();
	const rest: string[] = [];
	for (const glob of globs) {
		const lower = glob.toLowerCase();
		if (!/[*?[\]\\{}()!+@]/.test(lower)) {
			exact.add(lower);
		} else if (/^\*[^*?[\]\\{}()!+@]+$/.test(lower)) {
			const suffix = lower.slice(1);
			const dot = suffix.lastIndexOf('.');
			if (dot < 0) {
				undotted.push(suffix);
			} else {
				// A name ends with `x.pem` only if its own extension (from its last dot) is `.pem`.
				listIn(suffixes, suffix.slice(dot)).push(suffix);
			}
		} else if (/^[^*?[\]\\{}()!+@]+\*$/.test(lower)) {
			listIn(prefixes, lower[0]).push(lower.slice(0, -1));
		} else {
			rest.push(glob);
		}
	}
	const re = rest.length > 0 ? new RegExp(rest.map(g => picomatch.makeRe(g, { dot: true, nocase: true }).source).join('|'), 'i') : undefined;
	if (exact.size === 0 && suffixes.size === 0 && undotted.length === 0 && prefixes.size === 0 && !re) {
		return () => false;
	}
	return name => {
		const lower = name.toLowerCase();
		if (exact.has(lower)) {
			return true;
		}
		const dot = lower.lastIndexOf('.');
		const sameExtension = dot < 0 ? undefined : suffixes.get(lower.slice(dot));
		if (sameExtension && sameExtension.some(suffix => lower.endsWith(suffix))) {
			return true;
		}
		if (undotted.some(suffix => lower.endsWith(suffix))) {
			return true;
		}
		const sameStart = prefixes.get(lower[0]);
		if (sameStart && sameStart.some(prefix => lower.startsWith(prefix))) {
			return true;
		}
		return re !== undefined && re.test(name);
	};
}

function listIn(lists: Map<string, string[]>, key: string): string[] {
	let list = lists.get(key);
	if (!list) {
		list = [];
		lists.set(key, list);
	}
	return list;
}
