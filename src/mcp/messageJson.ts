import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { encodedEntries } from '../core/encodedEntries';

/**
 * The JSON text of a message our transports write, exactly `JSON.stringify(message)`: a
 * `resources/list` answer whose page was prepared ahead gets its entries' text as encoded then
 * (see `encodeEntriesAhead`) instead of stringifying them again on the request path. Only the
 * envelope and the result's other members (cursor, cache hints, `_meta`) are stringified here.
 */
export function messageJson(message: JSONRPCMessage): string {
	const result = (message as { result?: unknown }).result;
	const resources = isPlainJson(result) ? (result as { resources?: unknown }).resources : undefined;
	const entriesJson = encodedEntries(resources);
	if (entriesJson === undefined || !isPlainJson(message)) {
		return JSON.stringify(message);
	}
	const resultJson = membersJson(result as object, (key, value) => (key === 'resources' && value === resources ? entriesJson : undefined));
	const json = resultJson === undefined ? undefined : membersJson(message, (key, value) => (key === 'result' && value === result ? resultJson : undefined));
	return json ?? JSON.stringify(message);
}

/** One message per line, as MCP's stdio transport frames them. */
export function messageLine(message: JSONRPCMessage): string {
	return `${messageJson(message)}\n`;
}

/**
 * `JSON.stringify(object)` for a plain object, with the text of some members given by `known`:
 * the same members in the same order (`Object.keys` is the order JSON uses), members whose value
 * JSON leaves out left out. Undefined when a member has its own `toJSON`, which JSON would call
 * with the member's key: rare enough to leave to `JSON.stringify` itself.
 */
function membersJson(object: object, known: (key: string, value: unknown) => string | undefined): string | undefined {
	let json = '';
	for (const key of Object.keys(object)) {
		const value = (object as Record<string, unknown>)[key];
		if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
			return undefined;
		}
		const valueJson = known(key, value) ?? JSON.stringify(value) as string | undefined;
		if (valueJson !== undefined) {
			json += `${json === '' ? '' : ','}${JSON.stringify(key)}:${valueJson}`;
		}
	}
	return `{${json}}`;
}

/** An object JSON writes member by member: not an array, and without a `toJSON` of its own. */
function isPlainJson(value: unknown): value is object {
	return value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}
