import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileFilter } from '../../../src/core/files/fileFilter';
import { FileIndex } from '../../../src/core/files/fileIndex';
import { OffThreadWalker, WalkBatch, WalkDone, WalkRequest } from '../../../src/core/files/walkBatch';
import { WorkspaceRoots } from '../../../src/core/files/workspaceRoots';
import { FileSettings } from '../../../src/core/ports';
import { ResourceEntry } from '../../../src/core/resource';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { ThreadWalker } from '../../../src/node/threadWalker';
import { Pacing } from '../../../src/node/walkWorker';
import { defaultFileSettings } from '../../fakes/fakeSettings';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { connectInMemory, createTestServer, listAll, RecordingLogger } from '../../helpers/harness';

const reader = new NodeFileSystem();

async function buildIndex(folders: string[], settings: FileSettings, walker?: OffThreadWalker): Promise<FileIndex> {
	const roots = await WorkspaceRoots.resolve(folders.map(f => ({ name: path.basename(f), path: f })), reader);
	const index = new FileIndex(reader, roots, new FileFilter(reader, settings), walker);
	await index.build();
	return index;
}

function entries(index: FileIndex): ResourceEntry[] {
	const view = index.sorted();
	return Array.from({ length: view.length }, (_, i) => view.at(i)!);
}

/** Each served link with where it leads, sorted, from `ServedLinks.handOver().links` (flat pairs). */
function linkPairs(flat: readonly string[]): string[] {
	return Array.from({ length: flat.length / 2 }, (_, i) => `${flat[2 * i]} -> ${flat[2 * i + 1]}`).sort();
}

/** Paths whose served-or-not answer depends on the `.gitignore` files the walk loaded. */
const PROBES = ['pkg/generated/new.ts', 'pkg/new.log', 'pkg/keep.log', 'build/out.js', 'new.log', 'src/new.ts', 'src/deep/new.log'];

function decisions(index: FileIndex): boolean[] {
	const folder = index.roots.folders[0];
	return PROBES.map(rel => index.filter.isIgnored(folder, rel, false));
}

/** A walker that hands over one batch naming a file nobody has, then fails, as a broken worker would. */
class HalfwayFailingWalker implements OffThreadWalker {
	async walk(_request: WalkRequest, onBatch: (batch: WalkBatch) => Promise<void>): Promise<WalkDone> {
		await onBatch({
			dirParents: new Int32Array(0), dirNames: '',
			fileDirs: Uint32Array.of(0), fileNames: 'not-on-disk.txt', sizes: Float64Array.of(1), mtimes: Float64Array.of(0),
			gitignores: [],
		});
		throw new Error('the worker crashed');
	}
}

describe('the walk in a worker thread', () => {
	let fx: Fixture;
	const settings: FileSettings = { ...defaultFileSettings, exclude: ['**/*.png'], secrets: ['*.secret'] };

	beforeEach(() => {
		fx = createFixture();
		fx.write('notes/a.secret', 'secret\n');
	});
	afterEach(() => fx.dispose());

	it('finds the same files, order, metadata, refused links and .gitignore rules as the walk in this thread', async () => {
		const log = new RecordingLogger();
		const here = await buildIndex([fx.root], settings);
		const there = await buildIndex([fx.root], settings, new ThreadWalker(log));
		assert.deepEqual(log.warnings, [], 'the worker walked');
		assert.ok(here.size > 5);
		assert.deepEqual(entries(there), entries(here));
		const [hereLinks, thereLinks] = [here.links.handOver(), there.links.handOver()];
		assert.deepEqual(thereLinks.refusedLinks.sort(), hereLinks.refusedLinks.sort());
		assert.ok(hereLinks.refusedLinks.length > 0, 'the fixture has links that leave the workspace');
		assert.deepEqual(linkPairs(thereLinks.links), linkPairs(hereLinks.links));
		assert.ok(hereLinks.links.length > 0, 'the fixture has links served as the files they lead to');
		assert.deepEqual(decisions(there), decisions(here));
		assert.ok(decisions(here).includes(true) && decisions(here).includes(false));
	});

	it('hands over a large tree in several batches, directories spanning batches, as this thread would walk it', async () => {
		for (let d = 0; d < 12; d++) {
			for (let f = 0; f < 500; f++) {
				fx.write(`bulk/d${d}/sub${f % 3}/f${f}.txt`, '');
			}
		}
		const here = await buildIndex([fx.root], settings);
		const there = await buildIndex([fx.root], settings, new ThreadWalker(new RecordingLogger()));
		assert.ok(here.size > 6000, 'more files than one batch holds');
		assert.deepEqual(entries(there), entries(here));
		assert.deepEqual([...there.directories()].sort(), [...here.directories()].sort());
	});

	it('walks several folders, named by folder, as this thread does', async () => {
		const other = mkdtempSync(path.join(os.tmpdir(), 'mwr-walker-'));
		try {
			mkdirSync(path.join(other, 'lib'));
			writeFileSync(path.join(other, 'lib', 'x.ts'), 'x\n');
			writeFileSync(path.join(other, '.env'), 'SECRET=1\n');
			const here = await buildIndex([fx.root, other], settings);
			const there = await buildIndex([fx.root, other], settings, new ThreadWalker(new RecordingLogger()));
			assert.deepEqual(entries(there), entries(here));
		} finally {
			rmSync(other, { recursive: true, force: true });
		}
	});

	it('falls back to this thread, with a log line, when the worker cannot start', async () => {
		const log = new RecordingLogger();
		const here = await buildIndex([fx.root], settings);
		const there = await buildIndex([fx.root], settings, new ThreadWalker(log, path.join(fx.base, 'no-such-worker.js')));
		assert.equal(log.warnings.length, 1);
		assert.match(log.warnings[0], /worker thread failed .*walking in the main thread instead/);
		assert.ok(!log.warnings[0].includes('    at '), 'no stack in the log line');
		assert.deepEqual(entries(there), entries(here));
	});

	it('drops what a walker handed over before it failed, and walks afresh in this thread', async () => {
		const here = await buildIndex([fx.root], settings);
		const there = await buildIndex([fx.root], settings, new HalfwayFailingWalker());
		assert.deepEqual(entries(there), entries(here));
		assert.ok(!entries(there).some(e => e.uri.endsWith('not-on-disk.txt')));
	});

	it('stops the worker when the index is cancelled, and applies nothing after', async () => {
		const log = new RecordingLogger();
		const roots = await WorkspaceRoots.resolve([{ name: 'ws', path: fx.root }], reader);
		const walker = new ThreadWalker(log);
		const controller = new AbortController();
		let batches = 0;
		const walking = walker.walk({ folders: roots.folders, settings }, async () => { batches++; }, controller.signal);
		controller.abort();
		await assert.rejects(walking, /cancelled/);
		assert.equal(batches, 0, 'nothing handed over after the cancel');
		assert.deepEqual(log.warnings, [], 'a cancelled walk is no failure');
	});

	it('serves the same listing through an MCP client', async () => {
		const plain = createTestServer([fx.root], { settings });
		const threaded = createTestServer([fx.root], { settings, walker: new ThreadWalker(new RecordingLogger()) });
		try {
			await Promise.all([plain.files.ready(), threaded.files.ready()]);
			const [a, b] = await Promise.all([connectInMemory(plain.registry, plain.log, 3), connectInMemory(threaded.registry, threaded.log, 3)]);
			assert.deepEqual(await listAll(b.client), await listAll(a.client));
			await Promise.all([a.close(), b.close()]);
		} finally {
			plain.dispose();
			threaded.dispose();
		}
	});
});

describe('pacing the worker\'s walk by the batches applied', () => {
	it('holds the walk while four batches are unapplied, and lets every waiter go when one is applied', async () => {
		const pacing = new Pacing();
		for (let i = 0; i < 3; i++) {
			pacing.posted();
			assert.equal(pacing.wait(), undefined, `${i + 1} unapplied: the walk goes on`);
		}
		pacing.posted();
		const released: number[] = [];
		const waits = [pacing.wait(), pacing.wait()].map((w, i) => w?.then(() => released.push(i)));
		assert.ok(waits.every(w => w !== undefined), 'four unapplied: both walkers wait');
		pacing.applied();
		await Promise.all(waits);
		assert.deepEqual(released.sort(), [0, 1]);
		assert.equal(pacing.wait(), undefined);
	});
});
