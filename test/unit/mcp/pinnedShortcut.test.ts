import * as assert from 'node:assert/strict';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { PinnedShortcut } from '../../../src/mcp/pinnedShortcut';
import { RecordingTransport } from '../../helpers/recordingTransport';

const request = (id: number, method: string): JSONRPCMessage => ({ jsonrpc: '2.0', id, method, params: {} });
const answer = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: {} });

/**
 * The side door past the SDK's stdio entry: open only for the pure reads, and only once the entry
 * has pinned the instance (it delivered a request other than discover); answers to what came
 * through the door go to the wire, everything else through the entry's channel.
 */
describe('PinnedShortcut', () => {
	let wire: RecordingTransport;
	let channel: RecordingTransport;
	let shortcut: PinnedShortcut;
	/** What the instance (the SDK's Protocol, here a recorder) received. */
	let received: JSONRPCMessage[];
	let instanceSide: Transport;

	beforeEach(async () => {
		wire = new RecordingTransport();
		channel = new RecordingTransport();
		shortcut = new PinnedShortcut(wire);
		received = [];
		instanceSide = shortcut.wrap(channel);
		instanceSide.onmessage = message => { received.push(message); };
		await instanceSide.start();
	});

	it('passes the entry\'s messages on, and opens once the entry delivered a request other than discover', () => {
		assert.ok(channel.started);
		assert.equal(shortcut.tryDeliver(request(1, 'resources/read')), false, 'nothing pinned yet');
		channel.onmessage?.(request(1, 'server/discover'));
		channel.onmessage?.({ jsonrpc: '2.0', method: 'notifications/initialized' });
		assert.equal(shortcut.tryDeliver(request(2, 'resources/read')), false, 'a discovery probe is not pinned');
		channel.onmessage?.(request(3, 'resources/list'));
		assert.equal(shortcut.tryDeliver(request(4, 'resources/read')), true);
		assert.deepEqual(received.map(m => 'id' in m ? m.id : 'note'), [1, 'note', 3, 4]);
	});

	it('takes only resources/read, resources/list and resources/templates/list', () => {
		channel.onmessage?.(request(1, 'initialize'));
		for (const method of ['subscriptions/listen', 'completion/complete', 'resources/subscribe', 'initialize', 'server/discover', 'tools/list']) {
			assert.equal(shortcut.tryDeliver(request(2, method)), false, method);
		}
		assert.equal(shortcut.tryDeliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }), false);
		for (const method of ['resources/read', 'resources/list', 'resources/templates/list']) {
			assert.equal(shortcut.tryDeliver(request(3, method)), true, method);
		}
	});

	it('sends the answers to shortcut requests to the wire, and everything else through the channel', async () => {
		channel.onmessage?.(request(1, 'resources/list'));
		assert.ok(shortcut.tryDeliver(request(2, 'resources/read')));
		await instanceSide.send(answer(2));
		await instanceSide.send(answer(1));
		await instanceSide.send({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
		await instanceSide.send(answer(2)); // answered once already: not a shortcut request any more
		assert.deepEqual(wire.sent, [answer(2)]);
		assert.deepEqual(channel.sent, [answer(1), { jsonrpc: '2.0', method: 'notifications/resources/list_changed' }, answer(2)]);
	});

	it('forgets a shortcut request the client cancelled', async () => {
		channel.onmessage?.(request(1, 'resources/list'));
		assert.ok(shortcut.tryDeliver(request(2, 'resources/read')));
		channel.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } });
		await instanceSide.send(answer(2));
		assert.deepEqual(wire.sent, []);
		assert.deepEqual(channel.sent, [answer(2)]);
	});

	it('closes with the channel: no more shortcut requests, and late answers are dropped', async () => {
		let closed = 0;
		instanceSide.onclose = () => { closed++; };
		channel.onmessage?.(request(1, 'resources/list'));
		assert.ok(shortcut.tryDeliver(request(2, 'resources/read')));
		await instanceSide.close();
		assert.equal(closed, 1);
		assert.equal(shortcut.tryDeliver(request(3, 'resources/read')), false);
		await instanceSide.send(answer(2));
		assert.deepEqual(wire.sent, []);
	});

	it('follows the instance the entry pinned last, not one it closed', async () => {
		channel.onmessage?.(request(1, 'resources/list'));
		const otherChannel = new RecordingTransport();
		const other = shortcut.wrap(otherChannel);
		const otherReceived: JSONRPCMessage[] = [];
		other.onmessage = message => { otherReceived.push(message); };
		await other.start();
		otherChannel.onmessage?.(request(1, 'initialize'));
		await instanceSide.close();
		assert.ok(shortcut.tryDeliver(request(2, 'resources/read')));
		assert.deepEqual(otherReceived.map(m => 'id' in m ? m.id : undefined), [1, 2]);
	});
});
