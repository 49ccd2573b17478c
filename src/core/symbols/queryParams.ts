import { InvalidParams } from '../errors';

/**
 * The query of a template URI as its parameters, each at most once and all of them known; an
 * unknown or repeated one is an InvalidParams naming those there are.
 */
export function queryParams(uri: string, known: readonly string[]): Map<string, string> {
	const at = uri.indexOf('?');
	const out = new Map<string, string>();
	if (at < 0) {
		return out;
	}
	let params: URLSearchParams;
	try {
		params = new URLSearchParams(uri.slice(at + 1));
	} catch {
		throw new InvalidParams('Malformed query');
	}
	for (const [key, value] of params) {
		if (!known.includes(key)) {
			throw new InvalidParams(`Unknown parameter "${key.slice(0, 40)}": this template takes ${known.join(', ')}`);
		}
		if (out.has(key)) {
			throw new InvalidParams(`"${key}" is given twice`);
		}
		out.set(key, value);
	}
	return out;
}

/** A `max` parameter: a whole number from 1 to `limit`, `fallback` when absent. */
export function maxParam(value: string | undefined, fallback: number, limit: number): number {
	if (value === undefined) {
		return fallback;
	}
	const n = /^[0-9]{1,7}$/.test(value) ? Number(value) : NaN;
	if (!(n >= 1 && n <= limit)) {
		throw new InvalidParams(`Invalid max "${value.slice(0, 20)}": a whole number from 1 to ${limit.toLocaleString('en-US')}`);
	}
	return n;
}
