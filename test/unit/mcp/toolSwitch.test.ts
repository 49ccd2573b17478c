import * as assert from 'node:assert/strict';
import { Emitter } from '../../../src/common/event';
import { EraClient, outcomeOf } from '../../helpers/eraClients';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { startToolWorkspace, ToolWorkspace } from '../../helpers/toolWorkspace';
import { until } from '../../helpers/until';

const ALL_TOOLS = ['list_resources', 'read_resource', 'search_text', 'search_files', 'relevant_files', 'find_symbols', 'symbol_relations'];

/** A client that counts `notifications/tools/list_changed`, listening for it on 2026-07-28. */
interface Hearing {
	readonly client: EraClient;
	heard: number;
	readonly onHeard: Emitter<void>;
	close(): Promise<void>;
}

async function hear(c: EraClient): Promise<Hearing> {
	const hearing: Hearing = { client: c, heard: 0, onHeard: new Emitter<void>(), close: async () => undefined };
	c.client.setNotificationHandler('notifications/tools/list_changed', () => {
		hearing.heard++;
		hearing.onHeard.fire();
	});
	if (c.era === 'modern') {
		const listen = await c.client.listen({ toolsListChanged: true });
		assert.equal(listen.honoredFilter.toolsListChanged, true, `${c.label}: the listen stream is acknowledged for tool list changes`);
		hearing.close = () => listen.close();
	}
	return hearing;
}

function heardAtLeast(h: Hearing, n: number): Promise<void> {
	return until(h.onHeard.event, () => h.heard >= n, `${h.client.label} to hear tools/list_changed ${n} time(s)`);
}

describe('the tools setting, turned while clients are connected, in both eras over HTTP and stdio', function () {
	this.timeout(30_000);
	let fx: Fixture;
	let ws: ToolWorkspace;
	let hearings: Hearing[];

	beforeEach(async () => {
		fx = createFixture();
		ws = await startToolWorkspace(fx.root);
		hearings = await Promise.all(ws.clients.map(hear));
		// A 2025 HTTP client hears notifications on its GET stream, which it opens by itself after
		// initialize: turn the switch until every client has heard once, then count from zero.
		while (hearings.some(h => h.heard === 0)) {
			ws.tools.set(false);
			ws.tools.set(true);
			await Promise.race(hearings.filter(h => h.heard === 0).map(h => heardAtLeast(h, 1)));
		}
		await Promise.all(hearings.map(h => h.client.client.listTools())); // every notification sent so far has arrived
		hearings.forEach(h => { h.heard = 0; });
	});
	afterEach(async () => {
		await Promise.all(hearings.map(h => h.close()));
		await ws.dispose();
		fx.dispose();
	});

	it('turned off: every client is told, lists no tools and cannot call one; turned on again: told again, all back', async () => {
		ws.tools.set(false);
		await Promise.all(hearings.map(h => heardAtLeast(h, 1)));
		for (const { client: c } of hearings) {
			assert.deepEqual((await c.client.listTools()).tools, [], c.label);
			const called = await outcomeOf(c.client.callTool({ name: 'list_resources', arguments: {} }));
			assert.ok(!called.ok && called.code === -32602 && /Tools are turned off/.test(called.message), `${c.label}: ${JSON.stringify(called)}`);
			assert.ok((await c.client.readResource({ uri: 'context://relevant' })).contents.length > 0, `${c.label}: resources are still served`);
		}
		// A change of the setting that leaves it off (another scope's edit) tells no one: the next
		// real turn is the second notification, and notifications on one stream arrive in order.
		ws.tools.touch();
		ws.tools.set(true);
		await Promise.all(hearings.map(h => heardAtLeast(h, 2)));
		for (const h of hearings) {
			assert.deepEqual((await h.client.client.listTools()).tools.map(t => t.name), ALL_TOOLS, h.client.label);
			assert.equal(h.heard, 2, `${h.client.label} heard only the two turns`);
		}
		for (const { client: c } of hearings) {
			const listed = await c.client.callTool({ name: 'list_resources', arguments: { prefix: 'context:' } });
			assert.deepEqual((listed.structuredContent as { resources: { uri: string }[] }).resources.map(r => r.uri), ['context://relevant'], c.label);
		}
	});
});
