import * as assert from 'node:assert/strict';
import { fileUri } from '../../../src/core/uriGuard';
import { Host, hostsPerTest, startHost } from '../../helpers/headlessHost';
import { MODERN_ENVELOPE, RawWire, rawBridge } from '../../helpers/rawWire';

describe('the bridge answers malformed params as the server does, in both eras', function () {
	this.timeout(30_000);
	const t = hostsPerTest();
	let wires: RawWire[] = [];

	afterEach(async () => {
		await Promise.all(wires.map(w => w.close()));
		wires = [];
	});

	it('passes the window\'s "method not found" on as -32601 (a 2026-07-28 window answers it with HTTP 404) and keeps the window', async () => {
		t.hosts.push(await startHost(t.fx.root, t.home));
		wires = [await rawBridge(t.fx.root, t.home, 'modern'), await rawBridge(t.fx.root, t.home, 'legacy')];
		const readme = fileUri(t.fx.file('README.md'));
		for (const wire of wires) {
			const modern = wire.label.endsWith('modern');
			// logging/setLevel is a 2025 method: towards the 2026-07-28 window the SDK client refuses it itself.
			for (const method of ['nope/nope', 'x/y', ...(modern ? [] : ['logging/setLevel'])]) {
				const answer = await wire.send(method, modern ? { _meta: MODERN_ENVELOPE } : { level: 'info' });
				assert.equal(answer.error?.code, -32601, `${wire.label} ${method}: ${JSON.stringify(answer)}`);
			}
			const next = await wire.send('resources/read', modern ? { uri: readme, _meta: MODERN_ENVELOPE } : { uri: readme });
			assert.ok(next.result, `${wire.label} serves the next request: ${JSON.stringify(next).slice(0, 200)}`);
		}
	});

	it('gives -32602 with a short reason for wrong types and an over-long URI, relays nothing, and serves the next request', async () => {
		const host: Host = await startHost(t.fx.root, t.home);
		t.hosts.push(host);
		wires = [await rawBridge(t.fx.root, t.home, 'modern'), await rawBridge(t.fx.root, t.home, 'legacy')];
		const readme = fileUri(t.fx.file('README.md'));
		const cases: [string, Record<string, unknown>][] = [
			['resources/read', {}], ['resources/read', { uri: 5 }], ['resources/list', { cursor: 5 }], ['resources/templates/list', { cursor: {} }],
			['completion/complete', {}], ['completion/complete', { ref: { type: 'ref/resource', uri: 'file:///{+path}' }, argument: { name: 'path', value: 5 } }],
			['resources/read', { uri: `${readme}?${'x'.repeat(100_000)}` }],
		];
		for (const wire of wires) {
			const modern = wire.label.endsWith('modern');
			for (const [method, params] of [...cases, ...(modern ? [] : [['resources/subscribe', { uri: 5 }], ['resources/subscribe', { uri: 'x'.repeat(100_000) }]] as [string, Record<string, unknown>][])]) {
				const answer = await wire.send(method, modern ? { ...params, _meta: MODERN_ENVELOPE } : params);
				assert.equal(answer.error?.code, -32602, `${wire.label} ${method} ${JSON.stringify(params).slice(0, 80)}: ${JSON.stringify(answer).slice(0, 300)}`);
				assert.ok(answer.error!.message.length < 300 && !answer.error!.message.includes('\n'), `${wire.label} ${method}: a short reason, not a dump: ${answer.error!.message.slice(0, 200)}`);
				assert.doesNotMatch(answer.error!.message, /not reachable/, `${wire.label}: the window is not lost over a client's mistake`);
			}
			const next = await wire.send('resources/read', modern ? { uri: readme, _meta: MODERN_ENVELOPE } : { uri: readme });
			assert.ok(next.result, `${wire.label} serves the next request: ${JSON.stringify(next).slice(0, 200)}`);
		}
	});
});
