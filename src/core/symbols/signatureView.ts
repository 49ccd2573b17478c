import { jsonBytes } from '../answerBudget';
import { Declaration, GrammarLanguage } from './ports';

/** What stands for a dropped body. */
export const BODY_MARKER = '…';

/** Kinds whose text past the first line is a value, not a signature. */
const VALUE_KINDS = new Set(['Variable', 'Constant']);

export interface Edit {
	readonly start: number;
	readonly end: number;
	readonly text: string;
}

/** A signatures view, and where it stopped when it would not fit. */
export interface SignatureView {
	readonly text: string;
	/** The source's 1-based line where the first top-level declaration left out begins. */
	readonly restFromLine?: number;
}

/**
 * A file cut down to its declarations: each declaration's text as written, with the bodies of its
 * functions replaced by a marker (`{ … }`, or `…` where a body has no braces), a variable's or a
 * constant's value past its first line by `…`, and its documentation
 * by the first line of it, as a line comment just above. What lies between top-level declarations
 * (imports, statements) is left out; what lies inside a class or a namespace (fields, other
 * members) stays. Top-level declarations stop before the first that would take the view past
 * `maxBytes` written as a JSON string.
 */
export function signatureView(text: string, declarations: readonly Declaration[], language: GrammarLanguage, maxBytes = Infinity): SignatureView {
	const edits: Edit[] = [];
	const collect = (d: Declaration) => {
		const indent = indentOf(text, d.start);
		if (d.doc) {
			if (d.doc.end > d.doc.start) {
				edits.push({ start: d.doc.start, end: d.doc.end, text: '' });
			}
			edits.push({ start: d.start, end: d.start, text: `${language.lineComment} ${d.doc.firstLine}\n${indent}` });
		}
		if (!d.body && d.children.length === 0 && VALUE_KINDS.has(d.kind)) {
			// A value's declaration is its first line: what follows is its initializer (an object, a call).
			let lineEnd = text.indexOf('\n', d.start);
			if (lineEnd >= 0 && lineEnd < d.end) {
				while (lineEnd > d.start && /\s/.test(text[lineEnd - 1])) {
					lineEnd--;
				}
				edits.push({ start: lineEnd, end: d.end, text: ` ${BODY_MARKER}` });
			}
			return;
		}
		if (d.body) {
			let headerEnd = d.body.start;
			while (headerEnd > d.start && /\s/.test(text[headerEnd - 1])) {
				headerEnd--;
			}
			edits.push({ start: headerEnd, end: d.body.end, text: d.body.braced ? ` { ${BODY_MARKER} }` : ` ${BODY_MARKER}` });
			return; // what lies in a body goes with it
		}
		d.children.forEach(collect);
	};
	declarations.forEach(collect);
	edits.sort((a, b) => a.start - b.start || a.end - b.end);
	const chunks: string[] = [];
	/** Where each chunk begins in the source. */
	const froms: number[] = [];
	for (const d of declarations) {
		const docAbove = d.doc && d.doc.end <= d.start && d.doc.end > d.doc.start;
		const from = lineStartIfBlank(text, docAbove ? d.doc!.start : d.start);
		froms.push(from);
		chunks.push(applyEdits(text, from, d.end, edits));
	}
	// No UTF-16 unit is more than 6 bytes in JSON: only a view that might not fit is counted.
	const mayNotFit = (chunks.reduce((n, c) => n + c.length + 2, 0) + 1) * 6 > maxBytes;
	let out = '';
	let bytes = 1; // the newline at the end
	let restFromLine: number | undefined;
	for (let i = 0; i < chunks.length; i++) {
		const separate = i > 0 && (chunks[i].includes('\n') || chunks[i - 1].includes('\n'));
		const piece = (i > 0 ? (separate ? '\n\n' : '\n') : '') + chunks[i];
		if (mayNotFit) {
			// Counted before the blank lines are folded below, which only shortens it.
			bytes += jsonBytes(piece);
			if (bytes > maxBytes) {
				restFromLine = lineOf(text, froms[i]);
				break;
			}
		}
		out += piece;
	}
	// A removed docstring or comment can leave blank lines behind.
	const view = (out.replace(/\n[ \t]*\n(?:[ \t]*\n)+/g, '\n\n').replace(/^[ \t]+$/gm, '') + '\n').replace(/^\n+/, '');
	return restFromLine === undefined ? { text: view } : { text: view, restFromLine };
}

/** The 1-based line of `offset`. */
function lineOf(text: string, offset: number): number {
	let line = 1;
	for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) {
		line++;
	}
	return line;
}

/**
 * `text[from, to)` with the edits that lie inside it applied; overlapping ones after the first are
 * skipped. `edits` are sorted by start: only those starting in `[from, to]` can apply (an edit
 * never ends before it starts), found by a binary search. Going through every edit for every
 * top-level declaration made a 5 MB file of 80,000 functions take 12 s, the server's only thread
 * held the whole time (other clients' requests then timed out).
 */
export function applyEdits(text: string, from: number, to: number, edits: readonly Edit[]): string {
	let lo = 0;
	let hi = edits.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (edits[mid].start < from) {
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	let out = '';
	let at = from;
	for (let i = lo; i < edits.length && edits[i].start <= to; i++) {
		const edit = edits[i];
		if (edit.start < at || edit.end > to) {
			continue;
		}
		out += text.slice(at, edit.start) + edit.text;
		at = edit.end;
	}
	return out + text.slice(at, to);
}

/** The blanks between the start of the line and `offset`, or '' when something else is there. */
function indentOf(text: string, offset: number): string {
	const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
	const before = text.slice(lineStart, offset);
	return /^[ \t]*$/.test(before) ? before : '';
}

/** The start of `offset`'s line when only blanks come before it on that line. */
function lineStartIfBlank(text: string, offset: number): number {
	const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
	return /^[ \t]*$/.test(text.slice(lineStart, offset)) ? lineStart : offset;
}
