import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { encodedEntries, releaseEncodedEntries } from '../core/encodedEntries';

/**
 * What our transports write for a message, in parts written one after the other: together
 * exactly `JSON.stringify(message)` plus `end`. A `resources/list` answer whose page was prepared
 * ahead gets its entries' text as encoded then (see `encodeEntriesAhead`) instead of stringifying
 * them again on the request path: only the envelope and the result's other members (cursor,
 * cache hints, `_meta`) are stringified here. That text stays a part of its own: joined to the
 * answer around it, V8 would copy its ~290 KiB once more (a string is flattened to be written).
 */
export function messageParts(message: JSONRPCMessage, end = ''): readonly string[] {
	const { result, resources } = pageOf(message);
	const entries = encodedEntries(resources);
	const inResult = entries !== undefined && splitAround(result as object, 'resources', resources);
	const inMessage = inResult && isPlainJson(message) && splitAround(message, 'result', result);
	return inResult && inMessage ? [inMessage[0] + inResult[0], entries, inResult[1] + inMessage[1] + end] : [`${JSON.stringify(message)}${end}`];
}

/** Called once a message's parts are written: its page's text encoded ahead is let go (see `releaseEncodedEntries`). */
export function messageWritten(message: JSONRPCMessage): void {
	releaseEncodedEntries(pageOf(message).resources);
}

/** A message's result, and the result's `resources` when it is an object JSON writes member by member. */
function pageOf(message: JSONRPCMessage): { result: unknown; resources: unknown } {
	const result = (message as { result?: unknown }).result;
	return { result, resources: isPlainJson(result) ? (result as { resources?: unknown }).resources : undefined };
}

/** One message per line, as MCP's stdio transport frames them, in the parts to write. */
export function messageLine(message: JSONRPCMessage): readonly string[] {
	return messageParts(message, '\n');
}

/**
 * `JSON.stringify(object)` for a plain object, in two parts: before and after the value of
 * member `key` (whose value must be `value`). The same members in the same order (`Object.keys`
 * is the order JSON uses), members whose value JSON leaves out left out. Undefined when a member
 * has its own `toJSON`, which JSON would call with the member's key: rare enough to leave to
 * `JSON.stringify` itself.
 */
function splitAround(object: object, key: string, value: unknown): [string, string] | undefined {
	const parts: [string, string] = ['', ''];
	let part = 0;
	let members = 0;
	for (const member of Object.keys(object)) {
		const memberValue = (object as Record<string, unknown>)[member];
		if (memberValue !== null && typeof memberValue === 'object' && typeof (memberValue as { toJSON?: unknown }).toJSON === 'function') {
			return undefined;
		}
		const isSplit = member === key && memberValue === value;
		const valueJson = isSplit ? '' : JSON.stringify(memberValue) as string | undefined;
		if (valueJson === undefined) {
			continue;
		}
		parts[part] += `${members++ === 0 ? '{' : ','}${JSON.stringify(member)}:${valueJson}`;
		if (isSplit) {
			part = 1;
		}
	}
	if (part === 0) {
		return undefined; // `key` was not there
	}
	parts[1] += '}';
	return parts;
}

/** An object JSON writes member by member: not an array, and without a `toJSON` of its own. */
function isPlainJson(value: unknown): value is object {
	return value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}
