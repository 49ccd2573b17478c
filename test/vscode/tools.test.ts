import * as assert from 'node:assert/strict';
import { McpSubscription } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import { Emitter } from '../../src/common/event';
import { EraClient, httpEraClients, outcomeOf } from '../helpers/eraClients';
import { until } from '../helpers/until';
import { ensureServer } from './helpers';

const section = () => vscode.workspace.getConfiguration('mcpResources');
const setTools = (value: boolean | undefined) => section().update('tools.enabled', value, vscode.ConfigurationTarget.Global);

/** A client counting `notifications/tools/list_changed` (heard on a listen stream in 2026-07-28). */
interface Hearing {
	readonly c: EraClient;
	heard: number;
	readonly onHeard: Emitter<void>;
	listen?: McpSubscription;
}

const heardAtLeast = (h: Hearing, n: number) => until(h.onHeard.event, () => h.heard >= n, `${h.c.label} to hear tools/list_changed ${n} time(s)`, 15_000);

describe('mcpResources.tools.enabled, turned while clients are connected (both eras)', () => {
	let hearings: Hearing[] = [];
	let all: string[];

	before(async () => {
		await setTools(undefined);
		const lock = await ensureServer();
		for (const c of await httpEraClients(lock.url, lock.token)) {
			const h: Hearing = { c, heard: 0, onHeard: new Emitter<void>() };
			c.client.setNotificationHandler('notifications/tools/list_changed', () => {
				h.heard++;
				h.onHeard.fire();
			});
			if (c.era === 'modern') {
				h.listen = await c.client.listen({ toolsListChanged: true });
				assert.equal(h.listen.honoredFilter.toolsListChanged, true, c.label);
			}
			hearings.push(h);
		}
		all = (await hearings[0].c.client.listTools()).tools.map(t => t.name);
		for (const name of ['list_resources', 'read_resource', 'search_text', 'search_files', 'find_symbols']) {
			assert.ok(all.includes(name), `${name} offered: ${all.join()}`);
		}
		// A 2025 client's GET stream opens after initialize, by itself: turn the setting until
		// every client has heard once (the path works), then count from zero.
		while (hearings.some(h => h.heard === 0)) {
			await setTools(false);
			await setTools(undefined);
			// Read after the awaits: what was heard during them counts (a race of none never ends).
			const waiting = hearings.filter(h => h.heard === 0);
			if (waiting.length > 0) {
				await Promise.race(waiting.map(h => heardAtLeast(h, 1)));
			}
		}
		await Promise.all(hearings.map(h => h.c.client.listTools())); // what was sent so far has arrived
		hearings.forEach(h => { h.heard = 0; });
	});
	after(async () => {
		await setTools(undefined);
		await Promise.all(hearings.map(h => h.listen?.close()));
		await Promise.all(hearings.map(h => h.c.close()));
		hearings = [];
	});

	it('off in the user settings: every client is told and lists no tools; on again: told again, every tool back', async () => {
		await setTools(false);
		await Promise.all(hearings.map(h => heardAtLeast(h, 1)));
		for (const { c } of hearings) {
			assert.deepEqual((await c.client.listTools()).tools, [], c.label);
			const called = await outcomeOf(c.client.callTool({ name: 'search_text', arguments: { q: 'greet' } }));
			assert.ok(!called.ok && called.code === -32602 && /Tools are turned off/.test(called.message), `${c.label}: ${JSON.stringify(called)}`);
		}
		await setTools(undefined);
		await Promise.all(hearings.map(h => heardAtLeast(h, 2)));
		for (const { c } of hearings) {
			assert.deepEqual((await c.client.listTools()).tools.map(t => t.name), all, c.label);
			const found = await c.client.callTool({ name: 'search_text', arguments: { q: 'greet' } });
			assert.ok((found.structuredContent as { matchCount: number }).matchCount > 0, `${c.label}: ${JSON.stringify(found.structuredContent)}`);
		}
	});
});
