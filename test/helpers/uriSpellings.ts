import * as fc from 'fast-check';

/**
 * Generated ways to write a `file:` URI for one absolute path, each saying whether it still
 * names that very file in the form the server documents (`file://` or `file://localhost`, any
 * letter case of scheme and host, any character percent-encoded in either hex case, non-ASCII
 * raw or encoded, optionally `?lines=N`), or was bent into something that names another file or
 * none (a letter's case flipped, NFD instead of the name's NFC, `.`/`..`/empty segments, an
 * encoded `/`, a trailing slash, another query, a fragment, `file:/` without the authority).
 */
export interface Spelling {
	readonly uri: string;
	/** The URI names the same file in a documented form: it must read exactly as the canonical URI does. */
	readonly sameFile: boolean;
	/** Well-formed, but a letter's case or the name's normal form changed: it names another path, which need not exist. */
	readonly renamed: boolean;
	/** `?lines=1` was appended (with sameFile: reads as the canonical URI's `?lines=1`). */
	readonly lines: boolean;
}

/** How one character is written: each names the same character. */
type CharForm = 'plain' | 'lower-hex' | 'upper-hex';

/** Characters a URI path cannot carry raw without changing what it means (and controls). */
function mustEncode(ch: string): boolean {
	return '%?#'.includes(ch) || /\s/.test(ch) || ch.charCodeAt(0) < 0x20 || ch === '\x7f';
}

function hex(ch: string, upper: boolean): string {
	const digits = Array.from(Buffer.from(ch, 'utf8'), b => `%${b.toString(16).padStart(2, '0')}`).join('');
	return upper ? digits.toUpperCase() : digits;
}

function writeChar(ch: string, form: CharForm): string {
	if (form === 'plain' && !mustEncode(ch)) {
		return ch;
	}
	return hex(ch, form !== 'lower-hex');
}

/** How a family writes a URI that embeds a path: which heads name the path, which bend it, and whether `?lines=` reads. */
export interface PathFamily {
	readonly goodPrefixes: readonly string[];
	readonly badPrefixes: readonly string[];
	readonly lines: boolean;
}

/** `file:` URIs: the scheme and `localhost` in any case. */
export const FILE_FAMILY: PathFamily = {
	goodPrefixes: ['file://', 'FILE://', 'File://', 'file://localhost', 'file://LocalHost'],
	badPrefixes: ['file:', 'file://other-host', 'file:////'],
	lines: true,
};

const BAD_SUFFIXES = ['?lines=1#top', '#top', '?x=1', '?', '#', '?lines=1&x=2'];
/** Segments put before a segment of the path: each makes a URI the server refuses. */
const INSERTS = ['', '.', '..', 'x/..', '%2e', '%2E%2e'];
/** The one way a spelling is bent away from its file, if any (mostly none). */
const BENDS = ['none', 'none', 'none', 'none', 'none', 'flip-case', 'nfd', 'insert', 'encoded-slash', 'trailing-slash', 'prefix', 'suffix'] as const;

/** Spellings of `absPath` (POSIX, absolute, or a display path with a leading `/`) in `family`. */
export function spellingsOf(absPath: string, family: PathFamily = FILE_FAMILY): fc.Arbitrary<Spelling> {
	const chars = Array.from(absPath);
	return fc.record({
		bend: fc.constantFrom(...BENDS),
		prefix: fc.constantFrom(...family.goodPrefixes),
		badPrefix: fc.constantFrom(...family.badPrefixes),
		lines: fc.boolean().map(b => b && family.lines),
		badSuffix: fc.constantFrom(...BAD_SUFFIXES),
		forms: fc.array(fc.constantFrom<CharForm>('plain', 'plain', 'plain', 'lower-hex', 'upper-hex'), { minLength: chars.length, maxLength: chars.length }),
		at: fc.nat(chars.length - 1),
		insert: fc.constantFrom(...INSERTS),
	}).map(({ bend, prefix, badPrefix, lines, badSuffix, forms, at, insert }) => {
		let sameFile = true;
		let source = chars;
		if (bend === 'nfd') {
			source = Array.from(absPath.normalize('NFD'));
			sameFile = source.join('') === absPath;
		}
		// Positions of the separators between segments (never the leading one).
		const slashes = source.flatMap((ch, i) => (ch === '/' && i > 0 ? [i] : []));
		const slashAt = slashes[at % slashes.length];
		let path = '';
		source.forEach((ch, i) => {
			if (bend === 'flip-case' && i === at % source.length) {
				const flipped = ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase();
				sameFile = flipped === ch;
				ch = flipped;
			}
			if (ch === '/') {
				if (bend === 'encoded-slash' && i === slashAt) {
					path += '%2F';
					sameFile = false;
				} else if (bend === 'insert' && i === slashAt) {
					path += `/${insert}/`;
					sameFile = false;
				} else {
					path += '/';
				}
				return;
			}
			path += Array.from(ch).map(c => writeChar(c, forms[i % forms.length])).join('');
		});
		if (bend === 'trailing-slash') {
			path += '/';
			sameFile = false;
		}
		const head = bend === 'prefix' ? badPrefix : prefix;
		const tail = bend === 'suffix' ? badSuffix : lines ? '?lines=1' : '';
		sameFile &&= bend !== 'prefix' && bend !== 'suffix';
		const renamed = !sameFile && (bend === 'flip-case' || bend === 'nfd');
		return { uri: `${head}${path}${tail}`, sameFile, renamed, lines: sameFile && lines };
	});
}
