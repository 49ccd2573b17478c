import * as assert from 'node:assert/strict';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { Honoured, ListenRelayTransport } from '../../../src/node/bridge/listenRelay';
import { RecordingTransport } from '../../helpers/recordingTransport';

const listen = (id: number, uris: string[]): JSONRPCMessage =>
	({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: { resourcesListChanged: true, resourceSubscriptions: uris } } });

/** An upstream whose answers the test releases by hand, counting what is still held. */
function upstream(refused: string[]) {
	const pending: (() => void)[] = [];
	let held = 0;
	const honour = (uris: readonly string[]) => new Promise<Honoured>(resolve => pending.push(() => {
		held++;
		let released = false;
		resolve({ uris: uris.filter(u => !refused.includes(u)), release: { dispose: () => { if (!released) { released = true; held--; } } } });
	}));
	return { honour, answer: () => pending.shift()!(), held: () => held };
}

const settle = () => new Promise(resolve => setImmediate(resolve));

describe('bridge: listen filter on the client side', () => {
	it('hands a listen on with only the URIs the window honours, and lets later messages pass meanwhile', async () => {
		const wire = new RecordingTransport();
		const window = upstream(['file:///ws/.env']);
		const filter = new ListenRelayTransport(wire, window.honour, () => undefined);
		const delivered: JSONRPCMessage[] = [];
		filter.onmessage = m => void delivered.push(m);
		wire.onmessage!(listen(1, ['file:///ws/a', 'file:///ws/.env']));
		wire.onmessage!({ jsonrpc: '2.0', id: 2, method: 'resources/list', params: {} });
		assert.deepEqual(delivered.map(m => (m as { id: number }).id), [2], 'the list request is not kept behind the listen');
		window.answer();
		await settle();
		assert.deepEqual(delivered[1], listen(1, ['file:///ws/a']));
		assert.equal(window.held(), 1);
		// The client cancels its stream: the window's watch is released and the SDK hears the cancel.
		wire.onmessage!({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
		assert.equal(window.held(), 0);
		assert.equal(delivered.length, 3);
	});

	it('drops a listen the client cancelled before the window answered, and releases what it held', async () => {
		const wire = new RecordingTransport();
		const window = upstream([]);
		const filter = new ListenRelayTransport(wire, window.honour, () => undefined);
		const delivered: JSONRPCMessage[] = [];
		filter.onmessage = m => void delivered.push(m);
		wire.onmessage!(listen(7, ['file:///ws/a']));
		wire.onmessage!({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
		window.answer();
		await settle();
		assert.deepEqual(delivered, [], 'neither the listen nor its cancel reach the SDK');
		assert.equal(window.held(), 0);
	});

	it('releases a stream the server ended (its empty result) and every stream when the client goes away', async () => {
		const wire = new RecordingTransport();
		const window = upstream([]);
		let closed = 0;
		const filter = new ListenRelayTransport(wire, window.honour, () => undefined, () => closed++);
		filter.onmessage = () => undefined;
		wire.onmessage!(listen(1, ['file:///ws/a']));
		wire.onmessage!(listen(2, ['file:///ws/b']));
		window.answer();
		window.answer();
		await settle();
		assert.equal(window.held(), 2);
		await filter.send({ jsonrpc: '2.0', id: 1, result: {} });
		assert.equal(window.held(), 1);
		await wire.close();
		assert.equal(window.held(), 0);
		assert.equal(closed, 1);
	});

	it('passes a malformed listen through untouched, for the SDK to answer', async () => {
		const wire = new RecordingTransport();
		const window = upstream([]);
		const filter = new ListenRelayTransport(wire, window.honour, () => undefined);
		const delivered: JSONRPCMessage[] = [];
		filter.onmessage = m => void delivered.push(m);
		const malformed = { jsonrpc: '2.0', id: 3, method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: [42] } } } as JSONRPCMessage;
		wire.onmessage!(malformed);
		assert.deepEqual(delivered, [malformed]);
	});
});
