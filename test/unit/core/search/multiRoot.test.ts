import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileUri } from '../../../../src/core/uriGuard';
import { FakeWatcher } from '../../../fakes/fakeWatcher';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';
import { bothEras, createSearchServer, FilesJson, readSearch, SearchServer, textUri } from '../../../helpers/searchServer';

describe('search in a multi-root workspace', function () {
	this.timeout(60_000);
	let fx: Fixture;
	let server: SearchServer;

	beforeEach(() => {
		fx = createFixture();
	});
	afterEach(() => {
		server.dispose();
		fx.dispose();
	});

	it('names each file by its folder, globs see the folder first, and a file gone from the second folder goes from answers', async () => {
		const one = path.join(fx.base, 'one');
		const two = path.join(fx.base, 'two');
		for (const [dir, text] of [[one, 'shared token one\n'], [two, 'shared token two\n']]) {
			mkdirSync(path.join(dir, 'src'), { recursive: true });
			writeFileSync(path.join(dir, 'src', 'file.ts'), text);
		}
		const watcher = new FakeWatcher();
		server = createSearchServer([one, two], { watcher });
		const eras = await bothEras(server.registry);
		try {
			for (const c of eras.clients) {
				const answer = await readSearch(c, textUri('shared token'));
				assert.deepEqual(answer.files.map(f => [f.path, f.uri]), [
					['one/src/file.ts', fileUri(path.join(one, 'src', 'file.ts'))],
					['two/src/file.ts', fileUri(path.join(two, 'src', 'file.ts'))],
				], c.label);
				assert.deepEqual((await readSearch(c, textUri('shared', { glob: 'two/**' }))).files.map(f => f.path), ['two/src/file.ts'], c.label);
				assert.deepEqual((await readSearch<FilesJson>(c, 'search://files?q=twofile')).files.map(f => f.path), ['two/src/file.ts'], c.label);
			}
			const gone = path.join(two, 'src', 'file.ts');
			rmSync(gone);
			watcher.fire({ kind: 'deleted', path: gone });
			const c = eras.clients[0];
			let paths: string[] = [];
			// The index hears of it a few milliseconds after the files provider: asked until then.
			for (const stop = Date.now() + 5000; Date.now() < stop;) {
				paths = (await readSearch(c, textUri('shared token'))).files.map(f => f.path);
				if (paths.length === 1) {
					break;
				}
				await new Promise(resolve => setTimeout(resolve, 10));
			}
			assert.deepEqual(paths, ['one/src/file.ts']);
		} finally {
			await eras.close();
		}
	});
});
