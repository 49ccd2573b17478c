import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { DirectoryEntry } from '../../../../src/core/ports';
import { fileUri } from '../../../../src/core/uriGuard';
import { DirectoryWatcher } from '../../../../src/node/directoryWatcher';
import { NodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { FakeWatcher } from '../../../fakes/fakeWatcher';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';
import { listedFileUris, RecordingLogger } from '../../../helpers/harness';
import { bothEras, createSearchServer, readSearch, SearchServer, textUri } from '../../../helpers/searchServer';
import { until } from '../../../helpers/until';

/**
 * Reads directories as the disk has them, and once a first directory has been read, makes a file
 * in it while the walk goes on: the file is made after its folder was read, before the walk ends.
 */
class WritingDuringWalk extends NodeFileSystem {
	readonly read: string[] = [];
	made: string | undefined;

	constructor(private readonly content: string) {
		super();
	}

	override async readDirectory(dirPath: string): Promise<DirectoryEntry[]> {
		const done = this.read[0];
		if (done !== undefined && this.made === undefined) {
			this.made = path.join(done, 'made-during-walk.ts');
			writeFileSync(this.made, this.content);
		}
		const entries = await super.readDirectory(dirPath);
		this.read.push(dirPath);
		return entries;
	}
}

describe('a file made during the first walk, in a folder already read, is listed and searchable', () => {
	let fx: Fixture;
	let server: SearchServer;

	beforeEach(() => {
		fx = createFixture();
		for (let i = 0; i < 20; i++) {
			fx.write(`dir${i}/file.ts`, `export const n${i} = ${i};\n`);
		}
	});
	afterEach(() => {
		server.dispose();
		fx.dispose();
	});

	it('headless: the directory watcher watches each folder before the walk reads it', async () => {
		const reader = new WritingDuringWalk('export const madeDuringWalkToken = 1;\n');
		server = createSearchServer([fx.root], { reader, watcher: new DirectoryWatcher(new RecordingLogger()) });
		await server.files.ready();
		assert.ok(reader.made, 'a file was made while the walk went on');
		assert.ok(reader.read.length > 2, 'directories were read after it was made');
		const uri = fileUri(reader.made);
		await until(server.registry.onDidChange, () => listedFileUris(server.files).includes(uri), `${uri} listed`, 5000);
		const eras = await bothEras(server.registry);
		try {
			for (const c of eras.clients) {
				// Listed first, then indexed: the index takes changes in batches, and a search is current
				// within a second of the listing (the contract), so the answer is asked until it holds.
				const deadline = Date.now() + 5000;
				let found: string[] = [];
				do {
					found = (await readSearch(c, textUri('madeDuringWalkToken'))).files.map(f => f.uri);
				} while (found.length === 0 && Date.now() < deadline && await new Promise(resolve => setTimeout(resolve, 50, true)));
				assert.deepEqual(found, [uri], c.label);
			}
		} finally {
			await eras.close();
		}
	});
});

describe('a watcher that watches the whole tree is started before the walk reads anything', () => {
	let fx: Fixture;
	let server: SearchServer;

	beforeEach(() => {
		fx = createFixture();
	});
	afterEach(() => {
		server.dispose();
		fx.dispose();
	});

	it('watch() comes before the first read, and what it reports during the walk is listed after it', async () => {
		const order: string[] = [];
		const reader = new WritingDuringWalk('export const reportedDuringWalk = 1;\n');
		const readDirectory = reader.readDirectory.bind(reader);
		reader.readDirectory = async dir => {
			order.push('read');
			return readDirectory(dir);
		};
		const watcher = new FakeWatcher();
		const watch = watcher.watch.bind(watcher);
		watcher.watch = (...args) => {
			order.push('watch');
			watch(...args);
		};
		server = createSearchServer([fx.root], { reader, watcher });
		await server.files.ready();
		assert.equal(order[0], 'watch', 'watching starts before any folder is read');
		assert.ok(reader.made);
		// What VS Code's watcher reports for the file made while the walk went on.
		watcher.fire({ kind: 'created', path: reader.made });
		const uri = fileUri(reader.made);
		await until(server.registry.onDidChange, () => listedFileUris(server.files).includes(uri), `${uri} listed`, 5000);
	});
});
