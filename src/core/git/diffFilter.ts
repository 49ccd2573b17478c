/**
 * A commit's header as `git show` prints it (`commit`, `Merge:`, `Author:`, `Date:` lines, then
 * the message indented by four spaces): the only text a unified diff may hold before its first file.
 */
const COMMIT_HEADER = /^commit [0-9a-f]+\n(?:(?:Merge|Author|Date):[^\n]*\n)*\n(?: {4}[^\n]*\n|\n)*$/;

/**
 * Removes the parts of a unified diff (git's format) that touch paths the caller refuses.
 * A file section whose paths cannot be worked out is removed too: when in doubt, hide. So is
 * text before the first file that is not a commit header (`unreadable`): git's diff ran through
 * an external diff tool or with colours (a user's `diff.external` or `color.ui=always`, which the
 * editor's git extension does not switch off), and no path in it can be judged.
 */
export async function filterDiff(
	text: string,
	isServed: (repoPath: string) => Promise<boolean>,
): Promise<{ text: string; hidden: number; unreadable: boolean }> {
	const sections = splitSections(text);
	const cache = new Map<string, Promise<boolean>>();
	const served = (p: string) => {
		let result = cache.get(p);
		if (!result) {
			result = isServed(p);
			cache.set(p, result);
		}
		return result;
	};
	let hidden = 0;
	let unreadable = false;
	const kept: string[] = [];
	for (const section of sections) {
		if (!section.startsWith('diff ')) {
			// Text before the first file: a commit header, or what no rule can judge.
			if (COMMIT_HEADER.test(section)) {
				kept.push(section);
			} else {
				unreadable = true;
			}
			continue;
		}
		const paths = sectionPaths(section);
		const ok = paths.length > 0 && !paths.includes('\0') && (await Promise.all(paths.map(served))).every(Boolean);
		if (ok) {
			kept.push(section);
		} else {
			hidden++;
		}
	}
	return { text: kept.join(''), hidden, unreadable };
}

function splitSections(text: string): string[] {
	const sections: string[] = [];
	let start = 0;
	const re = /^diff (?:--git|--cc|--combined) /gm;
	let match: RegExpExecArray | null;
	while ((match = re.exec(text)) !== null) {
		if (match.index > start) {
			sections.push(text.slice(start, match.index));
		}
		start = match.index;
	}
	if (start < text.length) {
		sections.push(text.slice(start));
	}
	return sections;
}

/**
 * Every repository path a file section refers to. The `a/` `b/` prefixes are removed when the
 * header shows them (git's prefixes vary with diff.noprefix and diff.mnemonicPrefix).
 */
export function sectionPaths(section: string): string[] {
	const paths = new Set<string>();
	const lines = section.split('\n');
	const header = lines[0];
	let prefixed = true;
	const headerPaths: string[] = [];
	const git = /^diff --git (.*)$/.exec(header);
	if (git) {
		const rest = git[1];
		const quoted = /^("(?:[^"\\]|\\.)*") ("(?:[^"\\]|\\.)*")$/.exec(rest);
		if (quoted) {
			headerPaths.push(quoted[1], quoted[2]);
		} else if (rest.length % 2 === 1 && rest[(rest.length - 1) / 2] === ' ') {
			// Unquoted `X Y` naming one path twice (no rename): split in the middle.
			const half = (rest.length - 1) / 2;
			const a = rest.slice(0, half);
			const b = rest.slice(half + 1);
			if (a === b || (hasPrefix(a) && hasPrefix(b) && a.slice(2) === b.slice(2))) {
				headerPaths.push(a, b);
			}
		}
		// diff.noprefix drops git's `a/` `b/`; diff.mnemonicPrefix uses other letters.
		if (headerPaths.length === 2) {
			prefixed = headerPaths.map(p => unquote(p) ?? '').every(hasPrefix) && headerPaths[0] !== headerPaths[1];
		}
	}
	const add = (raw: string, mayHavePrefix: boolean) => {
		const p = unquote(raw.replace(/\t$/, ''));
		if (p === undefined) {
			paths.add('\0'); // unreadable: refused by every check
			return;
		}
		if (p === '/dev/null') {
			return;
		}
		paths.add(mayHavePrefix && prefixed && hasPrefix(p) ? p.slice(2) : p);
	};
	for (const p of headerPaths) {
		add(p, true);
	}
	const combined = /^diff --(?:cc|combined) (.*)$/.exec(header);
	if (combined) {
		add(combined[1], false);
	}
	for (const line of lines.slice(1)) {
		if (line.startsWith('@@')) {
			break; // hunks start: no more header lines
		}
		let m: RegExpExecArray | null;
		if ((m = /^(?:---|\+\+\+) (.*)$/.exec(line))) {
			add(m[1], true);
		} else if ((m = /^(?:rename|copy) (?:from|to) (.*)$/.exec(line))) {
			add(m[1], false);
		} else if ((m = /^Binary files (.*) and (.*) differ$/.exec(line))) {
			add(m[1], true);
			add(m[2], true);
		}
	}
	return [...paths];
}

function hasPrefix(p: string): boolean {
	return /^[a-z]\//.test(p);
}

/** Git's C-style quoting (`"a\303\251\tb"`), or the text itself when unquoted. */
export function unquote(raw: string): string | undefined {
	if (!raw.startsWith('"')) {
		return raw;
	}
	if (!raw.endsWith('"') || raw.length < 2) {
		return undefined;
	}
	const body = raw.slice(1, -1);
	const bytes: number[] = [];
	const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
	for (let i = 0; i < body.length; i++) {
		const ch = body[i];
		if (ch !== '\\') {
			bytes.push(...Buffer.from(ch, 'utf8'));
			continue;
		}
		const next = body[++i];
		if (next === undefined) {
			return undefined;
		}
		if (/[0-7]/.test(next)) {
			const oct = body.slice(i, i + 3);
			if (!/^[0-7]{3}$/.test(oct)) {
				return undefined;
			}
			bytes.push(parseInt(oct, 8));
			i += 2;
		} else if (next in simple) {
			bytes.push(simple[next]);
		} else {
			return undefined;
		}
	}
	return Buffer.from(bytes).toString('utf8');
}
