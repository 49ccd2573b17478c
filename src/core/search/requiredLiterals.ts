/**
 * Literal text any match of a regular expression must contain, to narrow a regex search to the
 * files (and lines) that hold it before the regex runs: alternatives of sets, a match containing
 * every literal of at least one set. Undefined when no such set can be told (a branch with no
 * literal at all, such as `\w+`).
 *
 * Read conservatively from RE2 syntax: a run of plain characters outside groups and classes is
 * required, cut where anything else stands (a class, a group, `.`, an anchor, an escape that is
 * not a plain character); a character a quantifier makes optional (`?`, `*`, `{0,n}`) leaves its
 * run. Groups are skipped whole, so what is certain about them is given up, never guessed.
 */
export type LiteralPlan = readonly (readonly string[])[];

/** Literals shorter than this narrow nothing worth the look. */
const MIN_USEFUL = 2;

export function requiredLiterals(pattern: string): LiteralPlan | undefined {
	const branches = splitTopLevel(pattern);
	if (!branches) {
		return undefined;
	}
	const plan: string[][] = [];
	for (const branch of branches) {
		const literals = branchLiterals(branch);
		if (!literals) {
			return undefined;
		}
		const useful = literals.filter(l => l.length >= MIN_USEFUL);
		if (useful.length === 0) {
			return undefined;
		}
		plan.push(useful);
	}
	return plan;
}

/** The top-level alternatives of a pattern; undefined when its brackets do not balance. */
function splitTopLevel(pattern: string): string[] | undefined {
	const out: string[] = [];
	let depth = 0;
	let from = 0;
	for (let i = 0; i < pattern.length; i++) {
		const c = pattern[i];
		if (c === '\\') {
			if (pattern[i + 1] === 'Q') {
				const end = pattern.indexOf('\\E', i + 2);
				i = end < 0 ? pattern.length : end + 1;
			} else {
				i++;
			}
		} else if (c === '[') {
			const end = classEnd(pattern, i);
			if (end < 0) {
				return undefined;
			}
			i = end;
		} else if (c === '(') {
			depth++;
		} else if (c === ')') {
			depth--;
			if (depth < 0) {
				return undefined;
			}
		} else if (c === '|' && depth === 0) {
			out.push(pattern.slice(from, i));
			from = i + 1;
		}
	}
	out.push(pattern.slice(from));
	return depth === 0 ? out : undefined;
}

/** The index of the `]` that closes the class opening at `open`, or -1. */
function classEnd(pattern: string, open: number): number {
	let i = open + 1;
	if (pattern[i] === '^') {
		i++;
	}
	if (pattern[i] === ']') {
		i++; // a leading `]` is a member
	}
	for (; i < pattern.length; i++) {
		const c = pattern[i];
		if (c === '\\') {
			i++;
		} else if (c === '[' && pattern[i + 1] === ':') {
			const end = pattern.indexOf(':]', i + 2);
			if (end >= 0) {
				i = end + 1;
			}
		} else if (c === ']') {
			return i;
		}
	}
	return -1;
}

/** The index of the `)` that closes the group opening at `open`, or -1. */
function groupEnd(pattern: string, open: number): number {
	let depth = 0;
	for (let i = open; i < pattern.length; i++) {
		const c = pattern[i];
		if (c === '\\') {
			i++;
		} else if (c === '[') {
			const end = classEnd(pattern, i);
			if (end < 0) {
				return -1;
			}
			i = end;
		} else if (c === '(') {
			depth++;
		} else if (c === ')') {
			depth--;
			if (depth === 0) {
				return i;
			}
		}
	}
	return -1;
}

/** Escapes of one plain character (outside classes): `\.` and the like stand for themselves. */
const PUNCTUATION = /^[!-/:-@[-`{-~]$/;

/** Literal runs of one branch, or undefined when it cannot be read. */
function branchLiterals(branch: string): string[] | undefined {
	const runs: string[] = [];
	let run = '';
	const cut = () => {
		if (run !== '') {
			runs.push(run);
		}
		run = '';
	};
	/** The last atom was a character of `run` (a quantifier then applies to it alone). */
	let lastWasRunChar = false;
	for (let i = 0; i < branch.length; i++) {
		const c = branch[i];
		if (c === '*' || c === '?' || c === '+' || c === '{') {
			let optional = c !== '+';
			let end = i;
			if (c === '{') {
				const repeat = /^\{(\d+)(,\d*)?\}/.exec(branch.slice(i));
				if (!repeat) {
					// A `{` that is no repeat is a literal in RE2.
					run += c;
					lastWasRunChar = true;
					continue;
				}
				optional = Number(repeat[1]) === 0;
				end = i + repeat[0].length - 1;
			}
			if (branch[end + 1] === '?' || branch[end + 1] === '+') {
				end++; // lazy or possessive: the same count
			}
			if (lastWasRunChar) {
				if (optional) {
					const chars = Array.from(run);
					chars.pop();
					run = chars.join('');
				}
				// Required at least once or not, what follows need not come right after it.
				cut();
			} else if (i === 0) {
				return undefined; // a quantifier of nothing: let the engine say what is wrong
			}
			lastWasRunChar = false;
			i = end;
			continue;
		}
		if (c === '\\') {
			const next = branch[i + 1];
			if (next === undefined) {
				return undefined;
			}
			if (PUNCTUATION.test(next)) {
				run += next;
				lastWasRunChar = true;
				i++;
				continue;
			}
			cut();
			lastWasRunChar = false;
			if (next === 'Q') {
				const end = branch.indexOf('\\E', i + 2);
				i = end < 0 ? branch.length : end + 1;
			} else if ((next === 'p' || next === 'P' || next === 'x') && branch[i + 2] === '{') {
				const end = branch.indexOf('}', i + 3);
				i = end < 0 ? branch.length : end;
			} else if (next === 'p' || next === 'P') {
				i += 2;
			} else if (next === 'x') {
				i += 3;
			} else if (/[0-7]/.test(next)) {
				const octal = /^[0-7]{1,3}/.exec(branch.slice(i + 1))!;
				i += octal[0].length;
			} else {
				i++;
			}
			continue;
		}
		if (c === '[') {
			cut();
			lastWasRunChar = false;
			const end = classEnd(branch, i);
			if (end < 0) {
				return undefined;
			}
			i = end;
			continue;
		}
		if (c === '(') {
			cut();
			lastWasRunChar = false;
			const end = groupEnd(branch, i);
			if (end < 0) {
				return undefined;
			}
			i = end;
			continue;
		}
		if (c === '.' || c === '^' || c === '$' || c === ')') {
			cut();
			lastWasRunChar = false;
			continue;
		}
		// A character that stands for itself. A surrogate pair is one atom for a quantifier.
		const code = branch.codePointAt(i)!;
		const char = String.fromCodePoint(code);
		run += char;
		i += char.length - 1;
		lastWasRunChar = true;
	}
	cut();
	return runs;
}
