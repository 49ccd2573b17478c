import * as assert from 'node:assert/strict';
import { Emitter } from '../../../../src/common/event';
import { IndexBuildProgress } from '../../../../src/core/search/indexBuildProgress';
import { IndexProgress, IndexReport, SearchBackend } from '../../../../src/core/search/ports';
import { until } from '../../../helpers/until';

/** A backend whose progress the test sets, counting how often it is asked. */
class SteppingBackend {
	progressNow: IndexProgress = { indexed: 0, total: 0, textBytes: 0, indexBytes: 0 };
	asked = 0;
	private readonly askedEmitter = new Emitter<void>();
	readonly onDidAsk = this.askedEmitter.event;
	readonly indexed = new Emitter<IndexReport>();
	readonly onDidIndex = this.indexed.event;
	async progress(): Promise<IndexProgress> {
		this.asked++;
		this.askedEmitter.fire();
		return this.progressNow;
	}
}

function read(indexed: number, total = 100): IndexProgress {
	return { indexed, total, textBytes: 0, indexBytes: 0 };
}

describe('the search index build progress', () => {
	const given = new Emitter<void>();
	const built: IndexBuildProgress[] = [];
	function progressOf(backend: SteppingBackend): IndexBuildProgress {
		const progress = new IndexBuildProgress(backend as unknown as SearchBackend, given.event, 5);
		built.push(progress);
		return progress;
	}
	afterEach(() => built.splice(0).forEach(p => p.dispose()));

	it('reports files read while the index builds, then undefined once, when it is done', async () => {
		const backend = new SteppingBackend();
		const progress = progressOf(backend);
		const seen: (IndexProgress | undefined)[] = [];
		progress.onDidChange(p => seen.push(p));
		backend.progressNow = read(10);
		given.fire();
		await until(progress.onDidChange, () => seen.length > 0, 'a first progress report');
		assert.deepEqual(seen[0], read(10));
		backend.progressNow = read(60);
		await until(progress.onDidChange, () => seen.some(p => p?.indexed === 60), 'the next report');
		backend.progressNow = read(100);
		await until(progress.onDidChange, () => seen.at(-1) === undefined, 'undefined once every file is read');
		// A change with nothing left to read: asked once, and nothing more is said.
		const asked = backend.asked;
		given.fire();
		await until(backend.onDidAsk, () => backend.asked === asked + 1, 'one question after the change');
		await until(backend.onDidAsk, () => true, 'the answer handled'); // resolves at once
		assert.deepEqual(seen.filter(p => p === undefined).length, 1, JSON.stringify(seen));
	});

	it('says done and stops asking when the backend reports the list indexed', async () => {
		const backend = new SteppingBackend();
		const progress = progressOf(backend);
		const seen: (IndexProgress | undefined)[] = [];
		progress.onDidChange(p => seen.push(p));
		backend.progressNow = read(1);
		// Another instance polls the same numbers beside it, as a clock.
		const other = new SteppingBackend();
		other.progressNow = read(1);
		progressOf(other).onDidChange(() => undefined);
		given.fire();
		await until(progress.onDidChange, () => seen.length > 0, 'a first progress report');
		backend.indexed.fire({ ...read(100), ms: 1 });
		assert.equal(seen.at(-1), undefined);
		const asked = backend.asked;
		const otherAsked = other.asked;
		await until(other.onDidAsk, () => other.asked >= otherAsked + 3, 'the other instance asked three more times');
		assert.equal(backend.asked, asked, 'no question after the backend said it is done');
		assert.equal(seen.at(-1), undefined, 'nothing reported after done');
	});

	it('asks nothing while nobody listens', async () => {
		const unheard = new SteppingBackend();
		unheard.progressNow = read(1);
		progressOf(unheard);
		const heard = new SteppingBackend();
		heard.progressNow = read(1);
		progressOf(heard).onDidChange(() => undefined);
		given.fire();
		await until(heard.onDidAsk, () => heard.asked >= 3, 'the listened-to instance asked three times');
		assert.equal(unheard.asked, 0);
	});
});
