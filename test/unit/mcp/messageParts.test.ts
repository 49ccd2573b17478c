import * as assert from 'node:assert/strict';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { encodedEntries, encodeEntriesAhead } from '../../../src/core/encodedEntries';
import { ResourceEntry } from '../../../src/core/resource';
import { messageLine, messageParts } from '../../../src/mcp/messageParts';

/** What a transport writes for `message`, as bytes. */
const bytesOf = (message: JSONRPCMessage, end?: string) => Buffer.from(messageParts(message, end).join(''));
const plainBytes = (message: JSONRPCMessage, end = '') => Buffer.from(`${JSON.stringify(message)}${end}`, 'utf8');

/** Names JSON has to escape or encode: quotes, backslashes, controls, line separators, lone surrogates, astral and combining characters. */
const AWKWARD_NAMES = [
	'plain.txt', 'ünï cödé.txt', 'quote "me".md', 'back\\slash\\.ts', 'tab\there', 'line\nbreak', 'nul\u0000byte', 'bell\u0007', 'del\u007f',
	'sep\u2028para\u2029', 'lone \ud800 high', 'lone \udc00 low', 'emoji 😀 🧑‍💻', 'e\u0301 combined', '日本語のファイル', '</script>', '{"json":[1]}',
];

function entries(): ResourceEntry[] {
	return AWKWARD_NAMES.map((name, i) => ({
		uri: `file:///ws/f${i}?${name}`, // the name raw in the URI too: JSON escapes it the same way
		name,
		mimeType: 'text/plain',
		size: i * 1000.5,
		annotations: { lastModified: '2001-09-09T01:46:40.250Z', priority: i / 7, audience: ['user', 'assistant'] },
	}));
}

/** A page answer as the SDK hands it to our transports, in each era's shape. */
function answers(resources: ResourceEntry[]): JSONRPCMessage[] {
	return [
		{ result: { resources, nextCursor: 'c1.eyJzIjoiZmlsZXMifQ' }, jsonrpc: '2.0', id: 7 },
		{ result: { resources }, jsonrpc: '2.0', id: 'a "string" id ü' },
		{
			result: {
				resources, nextCursor: 'c1.x', resultType: 'complete', ttlMs: 0, cacheScope: 'private',
				_meta: { 'io.modelcontextprotocol/serverInfo': { name: 'n "q"', title: 'ü', version: '1.0.0' } },
			},
			jsonrpc: '2.0', id: 8,
		},
		// Members JSON leaves out, members that come before the page, and a key JSON orders first.
		{ id: 9, jsonrpc: '2.0', result: { 7: 'seven', before: [1, 'two'], resources, skipped: undefined, fn: () => 1 } } as unknown as JSONRPCMessage,
	];
}

describe('messageParts: a listed page encoded ahead, spliced into its answer', () => {
	it('writes exactly what JSON.stringify writes, for every shape of answer and every awkward name', () => {
		for (const message of answers(entries())) {
			const plain = plainBytes(message);
			encodeEntriesAhead((message as unknown as { result: { resources: ResourceEntry[] } }).result.resources);
			assert.deepEqual(bytesOf(message), plain);
			assert.deepEqual(Buffer.from(messageLine(message).join('')), Buffer.concat([plain, Buffer.from('\n')]));
		}
	});

	it('uses the text encoded ahead instead of stringifying the entries again', () => {
		const resources = entries();
		encodeEntriesAhead(resources);
		const [message] = answers(resources);
		const before = plainBytes(message);
		// Against the contract (entries are replaced, never changed in place), which is what
		// shows where the text came from.
		(resources[0] as { name: string }).name = 'changed in place';
		assert.deepEqual(bytesOf(message), before);
		// The text goes out as a part of its own, the very string encoded ahead: joined to the
		// answer around it, it would be copied once more on the request path.
		const parts = messageParts(message);
		assert.equal(parts.length, 3);
		assert.equal(parts[1], encodedEntries(resources));
	});

	it('stringifies the page again once an entry was replaced, added or taken away', () => {
		for (const change of [
			(r: ResourceEntry[]) => { r[2] = { ...r[2], name: 'replaced' }; },
			(r: ResourceEntry[]) => { r.push({ uri: 'file:///ws/added', name: 'added' }); },
			(r: ResourceEntry[]) => { r.shift(); },
		]) {
			const resources = entries();
			encodeEntriesAhead(resources);
			change(resources);
			for (const message of answers(resources)) {
				assert.deepEqual(bytesOf(message, '\n'), plainBytes(message, '\n'));
			}
		}
	});

	it('leaves pages not encoded ahead, other answers and objects with toJSON to JSON.stringify', () => {
		const resources = entries();
		const withToJson = { result: { resources, toJSON: () => ({ replaced: true }) }, jsonrpc: '2.0', id: 1 } as unknown as JSONRPCMessage;
		const memberToJson = { result: { resources, when: new Date(0) }, jsonrpc: '2.0', id: 2 } as unknown as JSONRPCMessage;
		const messages: JSONRPCMessage[] = [
			...answers(entries()),
			{ jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'Invalid cursor' } },
			{ jsonrpc: '2.0', method: 'notifications/resources/list_changed' },
			{ result: { contents: [{ uri: 'file:///ws/a', text: 'x' }] }, jsonrpc: '2.0', id: 4 },
		];
		encodeEntriesAhead(resources);
		for (const message of [...messages, withToJson, memberToJson]) {
			assert.deepEqual(bytesOf(message), plainBytes(message));
		}
	});
});
