import * as assert from 'node:assert/strict';
import { symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { OffThreadWalker } from '../../../src/core/files/walkBatch';
import { fileUri } from '../../../src/core/uriGuard';
import { ThreadWalker } from '../../../src/node/threadWalker';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { connectInMemory, ConnectedClient, createTestServer, errorOf, listAll, RecordingLogger, TestServer } from '../../helpers/harness';

/**
 * A symlink to a served file is listed and read as that file. A watcher reports a change to the
 * file only, never to the links that lead to it: the link's entry and subscribers follow it all
 * the same, whoever walked the workspace (this thread or a worker's).
 */
for (const [walkedBy, walker] of [['this thread', undefined], ['a worker thread', () => new ThreadWalker(new RecordingLogger())]] as const) {
	describe(`symlinked files kept current (walked by ${walkedBy})`, () => {
		let fx: Fixture;
		let server: TestServer;
		let conn: ConnectedClient;
		let target: string;
		let link: string;

		beforeEach(async () => {
			fx = createFixture();
			target = fx.write('docs/target.md', 'one\n');
			link = fx.file('docs-link.md');
			symlinkSync(target, link);
			symlinkSync(fx.file('docs/later.md'), fx.file('early-link.md')); // leads nowhere yet
			symlinkSync(fx.file('docs'), fx.file('docs-dir-link')); // a directory: not walked, its files read through it
			server = createTestServer([fx.root], { walker: (walker as (() => OffThreadWalker) | undefined)?.() });
			await server.files.ready();
			conn = await connectInMemory(server.registry, server.log);
		});
		afterEach(async () => {
			await conn.close();
			server.dispose();
			fx.dispose();
		});

		const listedLink = async () => (await listAll(conn.client)).find(r => r.uri === fileUri(link)) as { size?: number } | undefined;

		it('notifies a link\'s subscribers and lists its new size when the file it leads to changes', async () => {
			assert.equal((await listedLink())?.size, 4);
			await conn.client.subscribeResource({ uri: fileUri(link) });
			writeFileSync(target, 'one, then two\n');
			server.watcher.fire({ kind: 'changed', path: target });
			await conn.waitForUpdate(fileUri(link));
			const read = await conn.client.readResource({ uri: fileUri(link) });
			assert.equal((read.contents[0] as { text: string }).text, 'one, then two\n');
			assert.equal((await listedLink())?.size, 14, 'the listing agrees with the read');
		});

		it('drops a link whose file is deleted, notifying its subscribers and every client of the list', async () => {
			await conn.client.subscribeResource({ uri: fileUri(link) });
			unlinkSync(target);
			const listChanged = conn.waitForListChanged();
			server.watcher.fire({ kind: 'deleted', path: target });
			await Promise.all([listChanged, conn.waitForUpdate(fileUri(link))]);
			assert.equal(await listedLink(), undefined, 'a link that leads nowhere is not listed');
		});

		it('lists a link again when the file it leads to comes back (a branch switched away and back)', async () => {
			await conn.client.subscribeResource({ uri: fileUri(link) });
			unlinkSync(target);
			let listChanged = conn.waitForListChanged();
			server.watcher.fire({ kind: 'deleted', path: target });
			await listChanged;
			assert.equal(await listedLink(), undefined);
			const heard = conn.updates.length;
			writeFileSync(target, 'back again\n');
			listChanged = conn.waitForListChanged();
			server.watcher.fire({ kind: 'created', path: target });
			await Promise.all([listChanged, conn.updates.length > heard ? undefined : conn.waitForUpdate(fileUri(link))]);
			assert.equal((await listedLink())?.size, 11);
			assert.ok(conn.updates.slice(heard).includes(fileUri(link)), 'the link\'s subscriber hears it is back');
		});

		it('notifies a file subscribed to through a linked directory (read there, never listed) when the file changes', async () => {
			const through = fileUri(fx.file('docs-dir-link/target.md'));
			await conn.client.subscribeResource({ uri: through });
			writeFileSync(target, 'changed\n');
			server.watcher.fire({ kind: 'changed', path: target });
			await conn.waitForUpdate(through);
			assert.equal(((await conn.client.readResource({ uri: through })).contents[0] as { text: string }).text, 'changed\n');
		});

		it('refuses a subscription to a directory, as its read is refused: nothing there is ever notified', async () => {
			for (const uri of [fileUri(fx.file('docs')), fileUri(fx.file('docs-dir-link'))]) {
				assert.equal((await errorOf(conn.client.readResource({ uri }))).code, -32602, uri);
				const refused = await errorOf(conn.client.subscribeResource({ uri }));
				assert.deepEqual([refused.code, refused.data], [-32602, { uri }], uri);
			}
		});

		it('lists a link that led nowhere when the workspace was walked once its file appears', async () => {
			const early = fileUri(fx.file('early-link.md'));
			assert.ok(!(await listAll(conn.client)).some(r => r.uri === early));
			const listChanged = conn.waitForListChanged();
			server.watcher.fire({ kind: 'created', path: fx.write('docs/later.md', 'later\n') });
			await listChanged;
			assert.equal(((await listAll(conn.client)).find(r => r.uri === early) as { size?: number } | undefined)?.size, 6);
		});
	});
}
