import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { Client as V2Client, McpSubscription, ProtocolError } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { fileUri } from '../../../src/core/uriGuard';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { CLI, Host, startHost, touchUntil } from '../../helpers/headlessHost';
import { LegacyWindow, startLegacyWindow } from '../../helpers/legacyWindow';
import { ModernWindow, startModernWindow } from '../../helpers/modernWindow';

/** Waits for a condition that events re-check (`poke` is called on each). */
class Waiter {
	private readonly checks = new Set<() => void>();
	poke(): void {
		this.checks.forEach(c => c());
	}
	until(predicate: () => boolean, what: string, stderr: () => string, timeoutMs = 15_000): Promise<void> {
		return new Promise((resolve, reject) => {
			const check = () => {
				if (predicate()) {
					clearTimeout(timer);
					this.checks.delete(check);
					resolve();
				}
			};
			const timer = setTimeout(() => {
				this.checks.delete(check);
				reject(new Error(`timed out waiting for ${what}; bridge stderr:\n${stderr()}`));
			}, timeoutMs);
			this.checks.add(check);
			check();
		});
	}
}

interface ModernBridgeClient {
	readonly client: V2Client;
	readonly updates: string[];
	listChanged(): number;
	until(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>;
	stderr(): string;
	close(): Promise<void>;
}

/** A v2 client pinned to 2026-07-28 on `bridge` over stdio: no fallback to 2025. */
async function connectModern(workspace: string, home: string): Promise<ModernBridgeClient> {
	const transport = new V2StdioClientTransport({
		command: process.execPath,
		args: [CLI, 'bridge', '--workspace', workspace, '--log-level', 'debug'],
		env: { ...process.env, MCP_WORKSPACE_RESOURCES_HOME: home } as Record<string, string>,
		stderr: 'pipe',
	});
	let stderr = '';
	(transport.stderr as Readable).on('data', d => (stderr += d));
	const client = new V2Client({ name: 'bridge-era-test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
	const waiter = new Waiter();
	const updates: string[] = [];
	let listChanged = 0;
	client.setNotificationHandler('notifications/resources/updated', n => {
		updates.push(n.params.uri);
		waiter.poke();
	});
	client.setNotificationHandler('notifications/resources/list_changed', () => {
		listChanged++;
		waiter.poke();
	});
	await client.connect(transport);
	return {
		client, updates, listChanged: () => listChanged, stderr: () => stderr,
		until: (predicate, what, timeoutMs) => waiter.until(predicate, what, () => stderr, timeoutMs),
		close: () => client.close(),
	};
}

async function readText(client: V2Client, uri: string): Promise<string> {
	const read = await client.readResource({ uri }, { cacheMode: 'bypass' });
	return (read.contents[0] as { text: string }).text;
}

describe('bridge: both protocol eras', function () {
	this.timeout(60_000);
	let fx: Fixture;
	let home: string;
	let hosts: Host[];
	let windows: (ModernWindow | LegacyWindow)[];

	before(() => assert.ok(existsSync(CLI), 'run npm run build first'));
	beforeEach(() => {
		fx = createFixture();
		home = mkdtempSync(path.join(os.tmpdir(), 'mwr-bridge-eras-'));
		hosts = [];
		windows = [];
	});
	afterEach(async () => {
		hosts.forEach(h => h.child.kill('SIGKILL'));
		await Promise.all(windows.map(w => w.close()));
		fx.dispose();
		rmSync(home, { recursive: true, force: true });
	});

	describe('to this project\'s server (both eras; the bridge asks for 2026-07-28)', () => {
		it('gives a 2026-07-28 client server/discover, reads, one page per request and listen, acknowledging only what the window honours', async () => {
			hosts.push(await startHost(fx.root, home));
			const conn = await connectModern(fx.root, home);
			try {
				assert.equal(conn.client.getProtocolEra(), 'modern');
				assert.ok(conn.client.getDiscoverResult(), 'server/discover answered');
				assert.deepEqual(conn.client.getServerCapabilities()?.resources, { subscribe: true, listChanged: true });
				const page = await conn.client.request({ method: 'resources/list', params: {} });
				assert.ok(page.resources.some(r => r.name === 'README.md'));
				assert.equal(await readText(conn.client, fileUri(fx.file('README.md'))), '# Fixture\n');
				const secret = fileUri(fx.file('.env'));
				const refused = await conn.client.readResource({ uri: secret }, { cacheMode: 'bypass' }).then(() => undefined, (err: unknown) => err);
				assert.ok(refused instanceof ProtocolError, String(refused));
				assert.equal(refused.code, -32602);
				assert.deepEqual(refused.data, { uri: secret });

				const readme = fileUri(fx.file('README.md'));
				const outside = 'file:///etc/hostname';
				const subscription = await conn.client.listen({
					resourcesListChanged: true,
					resourceSubscriptions: [readme, secret, fileUri(fx.file('SECRET.PEM')), outside, 'nope://x'],
				});
				try {
					assert.deepEqual(subscription.honoredFilter, { resourcesListChanged: true, resourceSubscriptions: [readme] });
					await touchUntil(fx, 'README.md', conn.until(() => conn.updates.includes(readme), `updated ${readme}`));
					const before = conn.listChanged();
					writeFileSync(fx.file('src/created.ts'), 'x');
					await conn.until(() => conn.listChanged() > before, 'list_changed');
					// A change to the refused file, then one to README: README's update comes, the secret's never.
					conn.updates.length = 0;
					writeFileSync(fx.file('.env'), 'TOKEN=changed\n');
					await touchUntil(fx, 'README.md', conn.until(() => conn.updates.includes(readme), `updated ${readme} again`));
					assert.ok(!conn.updates.includes(secret), 'a refused URI is never notified');
				} finally {
					await subscription.close();
				}
			} finally {
				await conn.close();
			}
		});

		it('keeps a 2026-07-28 listen stream open across a window restart and delivers updates from the new window', async () => {
			const first = await startHost(fx.root, home);
			hosts.push(first);
			const conn = await connectModern(fx.root, home);
			try {
				const readme = fileUri(fx.file('README.md'));
				const subscription: McpSubscription = await conn.client.listen({ resourcesListChanged: true, resourceSubscriptions: [readme] });
				let ended: string | undefined;
				void subscription.closed.then(reason => (ended = reason));
				const changedBefore = conn.listChanged();
				await first.stop();
				const second = await startHost(fx.root, home);
				hosts.push(second);
				await conn.until(() => conn.listChanged() > changedBefore, 'list_changed on the open stream after the restart');
				assert.match(conn.stderr(), new RegExp(`reconnected to headless server \\(pid ${second.child.pid}\\)`));
				conn.updates.length = 0;
				await touchUntil(fx, 'README.md', conn.until(() => conn.updates.includes(readme), `updated ${readme} after the restart`));
				assert.equal(ended, undefined, 'the client\'s stream stayed open');
				await subscription.close();
			} finally {
				await conn.close();
			}
		});
	});

	describe('to a 2026-07-28 window', () => {
		const resources = (fx: Fixture) => new Map([
			[fileUri(fx.file('README.md')), 'readme'], [fileUri(fx.file('src/index.ts')), 'index'], [fileUri(fx.file('.env')), 'secret'],
		]);

		it('relays a 2026-07-28 client, and its listen acknowledgement is the window\'s own', async () => {
			const window = await startModernWindow({ resources: resources(fx), refused: [fileUri(fx.file('.env'))] });
			windows.push(window);
			await window.advertise(home, [fx.root]);
			const conn = await connectModern(fx.root, home);
			try {
				assert.equal(await readText(conn.client, fileUri(fx.file('README.md'))), 'readme');
				const readme = fileUri(fx.file('README.md'));
				const subscription = await conn.client.listen({ resourcesListChanged: true, resourceSubscriptions: [readme, fileUri(fx.file('.env')), 'nope://x'] });
				assert.deepEqual(subscription.honoredFilter.resourceSubscriptions, [readme]);
				assert.deepEqual(window.listens.at(-1), [readme, fileUri(fx.file('.env')), 'nope://x'], 'the window was asked, and answered');
				window.updated(readme);
				window.updated(fileUri(fx.file('.env')));
				await conn.until(() => conn.updates.includes(readme), 'updated through the bridge');
				assert.ok(!conn.updates.includes(fileUri(fx.file('.env'))));
				await subscription.close();
			} finally {
				await conn.close();
			}
		});

		it('gives a 2025 client (SDK v1) initialize and resources/subscribe, with the window\'s refusals and updates', async () => {
			const window = await startModernWindow({ resources: resources(fx), refused: [fileUri(fx.file('.env'))] });
			windows.push(window);
			await window.advertise(home, [fx.root]);
			const transport = new V1StdioClientTransport({
				command: process.execPath,
				args: [CLI, 'bridge', '--workspace', fx.root, '--log-level', 'debug'],
				env: { ...process.env, MCP_WORKSPACE_RESOURCES_HOME: home } as Record<string, string>,
				stderr: 'pipe',
			});
			let stderr = '';
			(transport.stderr as Readable).on('data', d => (stderr += d));
			const client = new V1Client({ name: 'bridge-v1-test', version: '1' });
			const waiter = new Waiter();
			const updates: string[] = [];
			client.setNotificationHandler(ResourceUpdatedNotificationSchema, n => {
				updates.push(n.params.uri);
				waiter.poke();
			});
			await client.connect(transport);
			try {
				assert.equal(client.getServerVersion()?.name, 'mcp-workspace-resources-bridge');
				const { resources: page } = await client.listResources();
				assert.deepEqual(page.map(r => r.uri), [fileUri(fx.file('README.md')), fileUri(fx.file('src/index.ts'))], 'the first page, as the window paged it');
				const readme = fileUri(fx.file('README.md'));
				// The window speaks 2026-07-28; its caching hints are not for a 2025 client.
				for (const result of [await client.readResource({ uri: readme }), await client.listResources(), await client.listResourceTemplates()] as Record<string, unknown>[]) {
					assert.deepEqual([result.ttlMs, result.cacheScope, result.resultType], [undefined, undefined, undefined]);
				}
				await client.subscribeResource({ uri: readme });
				await assert.rejects(client.subscribeResource({ uri: fileUri(fx.file('.env')) }), /Resource not found/);
				window.updated(readme);
				await waiter.until(() => updates.includes(readme), 'updated through the bridge', () => stderr);
				await client.unsubscribeResource({ uri: readme });
			} finally {
				await client.close();
			}
		});

		it('follows a 2026-07-28 window across a restart on a new port with a new token, listen stream open', async () => {
			let window = await startModernWindow({ resources: resources(fx) });
			windows.push(window);
			await window.advertise(home, [fx.root]);
			const conn = await connectModern(fx.root, home);
			try {
				const readme = fileUri(fx.file('README.md'));
				const subscription = await conn.client.listen({ resourcesListChanged: true, resourceSubscriptions: [readme] });
				const changedBefore = conn.listChanged();
				await window.close();
				windows = [];
				window = await startModernWindow({ resources: resources(fx) });
				windows.push(window);
				await window.advertise(home, [fx.root]);
				await conn.until(() => conn.listChanged() > changedBefore, 'list_changed after the restart');
				assert.deepEqual(window.listens.at(-1), [readme], 'the bridge listened again on the new window');
				conn.updates.length = 0;
				window.updated(readme);
				await conn.until(() => conn.updates.includes(readme), 'updated from the new window');
				await subscription.close();
			} finally {
				await conn.close();
			}
		});
	});

	describe('to a 2025-only window (SDK v1)', () => {
		const resources = (fx: Fixture) => new Map([
			[fileUri(fx.file('README.md')), 'readme'], [fileUri(fx.file('src/index.ts')), 'index'], [fileUri(fx.file('.env')), 'secret'],
		]);

		it('gives a 2026-07-28 client listen, acknowledging what the window accepted to subscribe', async () => {
			const window = await startLegacyWindow({ resources: resources(fx), refused: [fileUri(fx.file('.env'))] });
			windows.push(window);
			await window.advertise(home, [fx.root]);
			const conn = await connectModern(fx.root, home);
			try {
				assert.ok(window.methods.includes('initialize'), 'the bridge fell back to 2025 towards the window');
				const readme = fileUri(fx.file('README.md'));
				const subscription = await conn.client.listen({ resourcesListChanged: true, resourceSubscriptions: [readme, fileUri(fx.file('.env')), 'nope://x'] });
				assert.deepEqual(subscription.honoredFilter.resourceSubscriptions, [readme]);
				assert.deepEqual([...window.subscribed], [readme], 'the window was asked with resources/subscribe');
				window.updated(readme);
				await conn.until(() => conn.updates.includes(readme), 'updated through the bridge');
				const before = conn.listChanged();
				window.listChanged();
				await conn.until(() => conn.listChanged() > before, 'list_changed through the bridge');
				await subscription.close();
			} finally {
				await conn.close();
			}
		});

		it('keeps a 2026-07-28 listen stream open across a restart of the window and subscribes again upstream', async () => {
			let window = await startLegacyWindow({ resources: resources(fx) });
			windows.push(window);
			await window.advertise(home, [fx.root]);
			const conn = await connectModern(fx.root, home);
			try {
				const readme = fileUri(fx.file('README.md'));
				const subscription = await conn.client.listen({ resourcesListChanged: true, resourceSubscriptions: [readme] });
				const changedBefore = conn.listChanged();
				await window.close();
				windows = [];
				window = await startLegacyWindow({ resources: resources(fx) });
				windows.push(window);
				await window.advertise(home, [fx.root]);
				await conn.until(() => conn.listChanged() > changedBefore, 'list_changed after the restart');
				assert.ok(window.subscribed.has(readme), 'subscribed again on the new window');
				conn.updates.length = 0;
				window.updated(readme);
				await conn.until(() => conn.updates.includes(readme), 'updated from the new window');
				await subscription.close();
			} finally {
				await conn.close();
			}
		});
	});
});
