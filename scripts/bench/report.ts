// How the bench prints: numbers, aligned tables, and the aims with MET/MISSED beside what was
// measured, the previous build's value and the anchor's.
import type { AimVerdict } from './section.js';

/** A number for a table: '—' for nothing, thousands grouped from 1,000, fewer decimals as it grows. */
export function fmt(v: number | null | undefined, digits?: number): string {
	if (v === null || v === undefined || !Number.isFinite(v)) return '—';
	if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US');
	return v.toFixed(digits ?? (Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2));
}

/** A ratio: "1.23x", cut (not rounded) to two places so 0.996 never reads as "1.00x". */
export const fmtRatio = (v: number | null | undefined) => (typeof v === 'number' ? `${(Math.floor(v * 100) / 100).toFixed(2)}x` : '');

/** Aligned columns: the first `left` (labels) to the left, the others (numbers) to the right. */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[], left = 1): string {
	const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => (r[i] ?? '').length)));
	const line = (cells: readonly string[]) => cells.map((c = '', i) => (i < left ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
	return [line(header), widths.map(w => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export const verdict = (met: boolean | null) => (met === null ? 'n/a' : met ? 'MET' : 'MISSED');

/** Every aim judged in the run, one line each: the value, the previous build's, the anchor's, MET or MISSED. */
export function renderAims(aims: readonly AimVerdict[]): string {
	if (aims.length === 0) return '';
	const value = (v: number | null | undefined, unit: string) => (v === null || v === undefined ? '—' : `${fmt(v)} ${unit}`);
	return renderTable(['aim', 'where', 'this build', 'previous', 'anchor', ''], aims.map(a => [
		a.aim, a.where, value(a.value, a.unit), a.previous === undefined ? '' : value(a.previous, a.unit),
		a.anchor ? `${a.anchor.name} ${value(a.anchor.value, a.unit)}` : '', verdict(a.met),
	]), 2);
}
