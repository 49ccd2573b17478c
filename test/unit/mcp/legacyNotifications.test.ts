import * as assert from 'node:assert/strict';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ProviderRegistry } from '../../../src/core/registry';
import { McpSession } from '../../../src/mcp/server/mcpSession';
import { SchemeProvider } from '../../fakes/schemeProvider';
import { fastTracker, RecordingLogger } from '../../helpers/harness';

/** A provider whose list changes when the test says. */
class ChangingList extends SchemeProvider {
	listChanged(): void {
		this.emitter.fire({ updated: [], listChanged: true });
	}
}

/**
 * A 2025 session speaks only once its client has said `initialize`: a stdio peer may ping first,
 * and what changes meanwhile (git found at start-up) is not sent to it.
 */
describe('2025 sessions: nothing sent before initialize', () => {
	it('sends no list_changed to a peer that has only pinged, and sends it once the peer initialized', async () => {
		const provider = new ChangingList('x', 'x', 'text');
		const registry = new ProviderRegistry([provider], fastTracker);
		const session = new McpSession({ registry, log: new RecordingLogger() });
		const [peer, serverSide] = InMemoryTransport.createLinkedPair();
		const received: JSONRPCMessage[] = [];
		const answered = new Map<unknown, () => void>();
		peer.onmessage = message => {
			received.push(message);
			if ('id' in message && !('method' in message)) {
				answered.get(message.id)?.();
			}
		};
		const request = async (id: number, method: string, params?: Record<string, unknown>) => {
			const answer = new Promise<void>(resolve => answered.set(id, resolve));
			await peer.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
			await answer;
		};
		await session.connect(serverSide);
		await peer.start();
		try {
			await request(1, 'ping');
			provider.listChanged();
			registry.flushChanges();
			await request(2, 'ping'); // what was sent before this answer has arrived
			assert.deepEqual(received.map(m => ('method' in m ? m.method : `answer ${String((m as { id: unknown }).id)}`)), ['answer 1', 'answer 2']);

			await request(3, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
			await peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
			received.length = 0;
			provider.listChanged();
			registry.flushChanges();
			await request(4, 'ping');
			assert.deepEqual(received.map(m => ('method' in m ? m.method : 'answer')), ['notifications/resources/list_changed', 'answer']);
		} finally {
			await peer.close();
			session.dispose();
			registry.dispose();
		}
	});
});
