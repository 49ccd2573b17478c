import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client as V2Client, McpSubscription, ProtocolError } from '@modelcontextprotocol/client';
import { fileUri } from '../../../src/core/uriGuard';
import { connectBridgeModern, connectBridgeV1 } from '../../helpers/bridgeClient';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { CLI, Host, startHost, touchUntil } from '../../helpers/headlessHost';
import { startLegacyWindow } from '../../helpers/legacyWindow';
import { startModernWindow } from '../../helpers/modernWindow';
import { StandInWindow } from '../../helpers/standInWindow';

async function readText(client: V2Client, uri: string): Promise<string> {
	const read = await client.readResource({ uri }, { cacheMode: 'bypass' });
	return (read.contents[0] as { text: string }).text;
}

describe('bridge: both protocol eras', function () {
	this.timeout(60_000);
	let fx: Fixture;
	let home: string;
	let hosts: Host[];
	let windows: StandInWindow[];

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

	/** A window that has written its lock file for the fixture, as a running VS Code window does; closed after the test. */
	async function advertised<W extends StandInWindow>(started: Promise<W>): Promise<W> {
		const window = await started;
		windows.push(window);
		await window.advertise(home, [fx.root]);
		return window;
	}

	/**
	 * A 2026-07-28 client listening on README through the bridge while its window restarts (new
	 * port, new token): list_changed on the open stream, `askedAgain` checks the new window was
	 * asked for README, and README's update then comes from the new window.
	 */
	async function listenAcrossRestart<W extends StandInWindow>(start: () => Promise<W>, askedAgain: (window: W, readme: string) => void): Promise<void> {
		const first = await advertised(start());
		const conn = await connectBridgeModern(fx.root, home);
		try {
			const readme = fileUri(fx.file('README.md'));
			const subscription = await conn.client.listen({ resourcesListChanged: true, resourceSubscriptions: [readme] });
			const changedBefore = conn.listChanged();
			await first.close();
			windows = [];
			const window = await advertised(start());
			await conn.until(() => conn.listChanged() > changedBefore, 'list_changed after the restart');
			askedAgain(window, readme);
			conn.updates.length = 0;
			window.updated(readme);
			await conn.until(() => conn.updates.includes(readme), 'updated from the new window');
			await subscription.close();
		} finally {
			await conn.close();
		}
	}

	describe('to this project\'s server (both eras; the bridge asks for 2026-07-28)', () => {
		it('gives a 2026-07-28 client server/discover, reads, one page per request and listen, acknowledging only what the window honours', async () => {
			hosts.push(await startHost(fx.root, home));
			const conn = await connectBridgeModern(fx.root, home);
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
			const conn = await connectBridgeModern(fx.root, home);
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
			const window = await advertised(startModernWindow({ resources: resources(fx), refused: [fileUri(fx.file('.env'))] }));
			const conn = await connectBridgeModern(fx.root, home);
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
			const window = await advertised(startModernWindow({ resources: resources(fx), refused: [fileUri(fx.file('.env'))] }));
			const conn = await connectBridgeV1(fx.root, home);
			const client = conn.client;
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
				await conn.until(() => conn.updates.includes(readme), 'updated through the bridge');
				await client.unsubscribeResource({ uri: readme });
			} finally {
				await client.close();
			}
		});

		it('relays an update the window sent on the old listen stream just before the new one opened', async () => {
			const window = await advertised(startModernWindow({ resources: resources(fx) }));
			const conn = await connectBridgeV1(fx.root, home);
			try {
				const readme = fileUri(fx.file('README.md'));
				const index = fileUri(fx.file('src/index.ts'));
				await conn.client.subscribeResource({ uri: readme });
				// The bridge swaps its listen stream for one with both URIs; the window announces a
				// change to README when that request arrives, before the new stream exists, so only
				// the old stream carries it.
				window.onListen = uris => {
					if (uris.includes(index)) {
						window.onListen = undefined;
						window.updated(readme);
					}
				};
				conn.updates.length = 0;
				await conn.client.subscribeResource({ uri: index });
				await conn.until(() => conn.updates.includes(readme), 'the update sent on the old stream');
			} finally {
				await conn.client.close();
			}
		});

		it('follows a 2026-07-28 window across a restart on a new port with a new token, listen stream open', async () => {
			await listenAcrossRestart(() => startModernWindow({ resources: resources(fx) }), (window, readme) => {
				assert.deepEqual(window.listens.at(-1), [readme], 'the bridge listened again on the new window');
			});
		});
	});

	describe('to a 2025-only window (SDK v1)', () => {
		const resources = (fx: Fixture) => new Map([
			[fileUri(fx.file('README.md')), 'readme'], [fileUri(fx.file('src/index.ts')), 'index'], [fileUri(fx.file('.env')), 'secret'],
		]);

		it('gives a 2026-07-28 client listen, acknowledging what the window accepted to subscribe', async () => {
			const window = await advertised(startLegacyWindow({ resources: resources(fx), refused: [fileUri(fx.file('.env'))] }));
			const conn = await connectBridgeModern(fx.root, home);
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
			await listenAcrossRestart(() => startLegacyWindow({ resources: resources(fx) }), (window, readme) => {
				assert.ok(window.subscribed.has(readme), 'subscribed again on the new window');
			});
		});
	});
});
