import * as assert from 'node:assert/strict';
import { fileUri } from '../../../../src/core/uriGuard';
import { amendDiscoverReply } from '../../../../src/mcp/server/discover';
import { ListenAdmission, ListenGate } from '../../../../src/mcp/subscriptions/listenGate';
import { ListenedUris } from '../../../../src/mcp/subscriptions/listenedUris';
import { FilteringStdioTransport } from '../../../../src/mcp/stdio/filteringStdioTransport';
import { MAX_SUBSCRIPTIONS_PER_SESSION } from '../../../../src/mcp/subscriptions/sessionSubscriptions';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';
import { createTestServer, TestServer } from '../../../helpers/harness';
import { RecordingTransport } from '../../../helpers/recordingTransport';

function listen(uris: unknown[]): { id: number; params: Record<string, unknown> } {
	return { id: 3, params: { notifications: { resourcesListChanged: true, resourceSubscriptions: uris }, _meta: { keep: 'me' } } };
}

describe('the listen gate both 2026-07-28 fronts use', () => {
	let fx: Fixture;
	let server: TestServer;
	let gate: ListenGate;

	beforeEach(() => {
		fx = createFixture();
		server = createTestServer([fx.root]);
		gate = new ListenGate(server.registry, new ListenedUris());
	});
	afterEach(() => {
		server.dispose();
		fx.dispose();
	});

	it('cuts resourceSubscriptions to what the server would serve, keeps the rest, and holds them until released', async () => {
		const readme = fileUri(fx.file('README.md'));
		const admission = await gate.admit(listen([readme, fileUri(fx.file('.env')), fileUri(`${fx.outside}/passwd`), 'nope://x', readme]));
		assert.ok('request' in admission);
		assert.deepEqual(admission.request, { id: 3, params: { notifications: { resourcesListChanged: true, resourceSubscriptions: [readme] }, _meta: { keep: 'me' } } });
		assert.deepEqual(gate.listened.among([readme, fileUri(fx.file('.env'))]), [readme]);
		admission.release();
		assert.deepEqual(gate.listened.among([readme]), []);
	});

	it('passes a listen naming no URIs as it is, holding nothing', async () => {
		const request = { id: 1, params: { notifications: { resourcesListChanged: true } } };
		const admission = await gate.admit(request);
		assert.ok('request' in admission);
		assert.equal(admission.request, request);
		assert.equal(gate.listened.size, 0);
	});

	it('refuses a stream naming something that is not a URI with -32602, holding nothing', async () => {
		const admission = await gate.admit(listen([fileUri(fx.file('README.md')), 5]));
		assert.ok('refusal' in admission);
		assert.equal(admission.refusal.code, -32602);
		assert.match(admission.refusal.message, /resourceSubscriptions must be URIs, as strings: 1 of its entries are not/);
		assert.equal(gate.listened.size, 0);
	});

	it('refuses a stream over the per-stream URI cap with -32602, holding nothing', async () => {
		const uris = Array.from({ length: MAX_SUBSCRIPTIONS_PER_SESSION + 1 }, (_, i) => fileUri(fx.file(`f${i}.txt`)));
		const admission = await gate.admit(listen(uris));
		assert.ok('refusal' in admission);
		assert.equal(admission.refusal.code, -32602);
		assert.match(admission.refusal.message, new RegExp(`At most ${MAX_SUBSCRIPTIONS_PER_SESSION} resourceSubscriptions`));
		assert.equal(gate.listened.size, 0);
	});

	it('amends a discover reply with the 2025 revisions, and leaves an error reply alone', () => {
		const reply = { jsonrpc: '2.0', id: 1, result: { supportedVersions: ['2026-07-28'] } };
		const amended = amendDiscoverReply(reply) as { result: { supportedVersions: string[] } };
		assert.equal(amended.result.supportedVersions[0], '2026-07-28');
		assert.ok(amended.result.supportedVersions.includes('2025-11-25'));
		const error = { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'x' } };
		assert.equal(amendDiscoverReply(error), error);
	});

	it('lets go of a stdio listen whose URIs were still being checked when the wire closed, delivering nothing', async () => {
		const readme = fileUri(fx.file('README.md'));
		let checked!: () => void;
		const checking = new Promise<void>(resolve => { checked = resolve; });
		let released!: () => void;
		const releasedOnce = new Promise<void>(resolve => { released = resolve; });
		/** Holds each admission until the test says its check is over, and reports its release. */
		class SlowGate extends ListenGate {
			override async admit<T extends { readonly params?: unknown }>(request: T): Promise<ListenAdmission<T>> {
				await checking;
				const admission = await super.admit(request);
				return 'refusal' in admission ? admission : { ...admission, release: () => { admission.release(); released(); } };
			}
		}
		const slowGate = new SlowGate(server.registry, new ListenedUris());
		const wire = new RecordingTransport();
		const stdio = new FilteringStdioTransport(wire, slowGate);
		const delivered: unknown[] = [];
		let handedOn!: () => void;
		const handedOnOnce = new Promise<void>(resolve => { handedOn = resolve; });
		stdio.onmessage = message => {
			delivered.push(message);
			handedOn();
		};

		wire.onmessage?.({ jsonrpc: '2.0', method: 'subscriptions/listen', ...listen([readme]), id: 7 });
		wire.onclose?.();
		checked();
		// Either the stream is let go of, or (the defect) it is handed on to the SDK as if open.
		await Promise.race([releasedOnce, handedOnOnce]);

		assert.equal(slowGate.listened.size, 0);
		assert.deepEqual(delivered, []);
		assert.deepEqual(wire.sent, []);
	});
});
