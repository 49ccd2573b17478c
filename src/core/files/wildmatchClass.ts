// Bracket expressions (`[a-z]`, `[!x]`, `[[:alpha:]]`) of git's glob syntax, read as
// `wildmatch.c` reads them; the automaton in wildmatch.ts tests units against them.

/** Which units a `[...]` holds. */
export class UnitClass {
	readonly singles: number[] = [];
	/** Inclusive bounds, in pairs. */
	readonly ranges: number[] = [];
	readonly named: ((unit: number) => boolean)[] = [];
	negated = false;

	has(unit: number): boolean {
		let found = this.singles.includes(unit);
		for (let i = 0; !found && i < this.ranges.length; i += 2) {
			found = unit >= this.ranges[i] && unit <= this.ranges[i + 1];
		}
		for (let i = 0; !found && i < this.named.length; i++) {
			found = this.named[i](unit);
		}
		return found !== this.negated;
	}
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isLower = (c: number) => c >= 0x61 && c <= 0x7a;
const isUpper = (c: number) => c >= 0x41 && c <= 0x5a;
const isAlpha = (c: number) => isLower(c) || isUpper(c);
const isAlnum = (c: number) => isAlpha(c) || isDigit(c);
const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d);
const isPrint = (c: number) => c >= 0x20 && c <= 0x7e;
const isGraph = (c: number) => isPrint(c) && c !== 0x20;

/** POSIX classes as git's ASCII-only `ctype` defines them. */
function namedClass(name: string, caseFold: boolean): ((unit: number) => boolean) | undefined {
	switch (name) {
		case 'alnum': return isAlnum;
		case 'alpha': return isAlpha;
		case 'blank': return c => c === 0x20 || c === 0x09;
		case 'cntrl': return c => c < 0x20 || c === 0x7f;
		case 'digit': return isDigit;
		case 'graph': return isGraph;
		case 'lower': return caseFold ? isAlpha : isLower;
		case 'print': return isPrint;
		case 'punct': return c => isGraph(c) && !isAlnum(c);
		case 'space': return isSpace;
		case 'upper': return caseFold ? isAlpha : isUpper;
		case 'xdigit': return c => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
		default: return undefined;
	}
}

/**
 * Reads the class starting after the `[` at `open`, as git's `dowild` does (`[!` or `[^`
 * negate, a leading `]` is a member, `a-z` ranges, `[:alpha:]`, `\` escapes). Returns the class
 * and the index after its `]`, or undefined when the class never closes or names an unknown
 * `[:class:]` (git then matches nothing).
 */
export function readClass(p: string, open: number, caseFold: boolean): { unitClass: UnitClass; next: number } | undefined {
	const unitClass = new UnitClass();
	let k = open + 1;
	if (p[k] === '!' || p[k] === '^') {
		unitClass.negated = true;
		k++;
	}
	let prev = -1;
	let c = k < p.length ? p.charCodeAt(k) : -1;
	do {
		if (c < 0) {
			return undefined;
		}
		if (c === 0x5c /* \ */) {
			c = ++k < p.length ? p.charCodeAt(k) : -1;
			if (c < 0) {
				return undefined;
			}
			unitClass.singles.push(c);
		} else if (c === 0x2d /* - */ && prev >= 0 && k + 1 < p.length && p[k + 1] !== ']') {
			c = p.charCodeAt(++k);
			if (c === 0x5c) {
				c = ++k < p.length ? p.charCodeAt(k) : -1;
				if (c < 0) {
					return undefined;
				}
			}
			unitClass.ranges.push(prev, c);
			c = -1; // a range ends what the next `-` may start from
		} else if (c === 0x5b /* [ */ && p[k + 1] === ':') {
			const start = k + 2;
			const close = p.indexOf(']', start);
			if (close < 0) {
				return undefined;
			}
			if (close - start - 1 < 0 || p[close - 1] !== ':') {
				// No `:]`: the `[` is a member, and reading goes on from the `:`.
				unitClass.singles.push(c);
			} else {
				const named = namedClass(p.slice(start, close - 1), caseFold);
				if (!named) {
					return undefined;
				}
				unitClass.named.push(named);
				k = close;
				c = -1;
			}
		} else {
			unitClass.singles.push(c);
		}
		prev = c;
		c = ++k < p.length ? p.charCodeAt(k) : -1;
	} while (c !== 0x5d /* ] */);
	return { unitClass, next: k + 1 };
}
