import { Declaration } from './ports';
import { kindIndex } from './symbolKinds';

/**
 * One file's symbols, packed for a search over a whole workspace: the names in one string
 * (`\n` between them) and a lower-case copy (which SymbolShards joins with other files' to search
 * them at once), the rest in typed arrays.
 * A symbol costs a few dozen bytes instead of an object and two strings.
 */
export interface FileSymbols {
	readonly absPath: string;
	readonly count: number;
	readonly names: string;
	/** `names` in lower case, name for name (a name whose lower case changes its length stays as it is). */
	readonly lower: string;
	/** Where each name starts in `names`; one more entry, past the last name's end and its `\n`. */
	readonly starts: Int32Array;
	/** Each symbol's kind, as its number in SYMBOL_KINDS. */
	readonly kinds: Uint8Array;
	/** Each symbol's first and last line, zero-based, two entries per symbol. */
	readonly lines: Int32Array;
	/** The symbol each is declared in, by number, or -1. */
	readonly containers: Int32Array;
}

/** Packs a file's declarations (at most `max` of them, outermost first). */
export function packSymbols(absPath: string, declarations: readonly Declaration[], max: number): FileSymbols {
	const names: string[] = [];
	const lowers: string[] = [];
	const kinds: number[] = [];
	const lines: number[] = [];
	const containers: number[] = [];
	const visit = (d: Declaration, container: number) => {
		if (names.length >= max) {
			return;
		}
		const index = names.length;
		const name = d.name.replace(/\n/g, ' ');
		const lower = name.toLowerCase();
		names.push(name);
		lowers.push(lower.length === name.length ? lower : name);
		kinds.push(kindIndex(d.kind));
		lines.push(d.range.start.line, d.range.end.line);
		containers.push(container);
		d.children.forEach(c => visit(c, index));
	};
	declarations.forEach(d => visit(d, -1));
	const starts = new Int32Array(names.length + 1);
	let at = 0;
	names.forEach((name, i) => {
		starts[i] = at;
		at += name.length + 1;
	});
	starts[names.length] = at;
	return {
		absPath, count: names.length, names: names.join('\n'), lower: lowers.join('\n'),
		starts, kinds: Uint8Array.from(kinds), lines: Int32Array.from(lines), containers: Int32Array.from(containers),
	};
}

/** A symbol's name. */
export function nameAt(file: FileSymbols, i: number): string {
	return file.names.slice(file.starts[i], file.starts[i + 1] - 1);
}
