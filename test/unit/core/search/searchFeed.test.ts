import * as assert from 'node:assert/strict';
import { Emitter } from '../../../../src/common/event';
import { nullLogger } from '../../../../src/common/logger';
import { EventLoopSlices } from '../../../../src/core/files/eventLoopSlices';
import { StoredFile, StoredFiles } from '../../../../src/core/files/fileStore';
import { FileSystemReader } from '../../../../src/core/ports';
import { ResourceChange } from '../../../../src/core/resource';
import { batchFiles, FileBatch, SearchBackend } from '../../../../src/core/search/ports';
import { ListedFiles, PART_FILES, SearchFeed } from '../../../../src/core/search/searchFeed';
import { FakeDocuments } from '../../../fakes/fakeDocuments';
import { FakeSettings } from '../../../fakes/fakeSettings';

/** A sorted list of files that a test changes between two slices of the feed's walk. */
class ChangingList implements ListedFiles {
	files: StoredFile[];
	/** Called before the walk goes on after a pause (the list may change here). */
	onPause: (() => void) | undefined;
	readonly onDidChange = new Emitter<ResourceChange>().event;
	readonly onDidChangeRules = new Emitter<void>().event;

	constructor(names: readonly string[]) {
		this.files = names.map(file).sort(byUri);
	}

	async ready(): Promise<void> {}
	isServedNow(): boolean {
		return true;
	}

	listedFiles(): StoredFiles {
		const files = this.files;
		return {
			length: files.length,
			at: i => files[i],
			uriAt: i => uriOf(files[i]),
			search: (uri, after) => {
				const i = files.findIndex(f => after ? uriOf(f) > uri : uriOf(f) >= uri);
				return i < 0 ? files.length : i;
			},
			find: uri => files.find(f => uriOf(f) === uri),
		};
	}
}

function file(name: string): StoredFile {
	return { path: `/ws/${name}`, display: name, size: 1, mtimeMs: 1 };
}
function uriOf(f: StoredFile): string {
	return `file://${f.path}`;
}
function byUri(a: StoredFile, b: StoredFile): number {
	return uriOf(a) < uriOf(b) ? -1 : uriOf(a) > uriOf(b) ? 1 : 0;
}

/** Slices that end after every step, each pause telling the list first. */
class EveryStep extends EventLoopSlices {
	constructor(private readonly list: ChangingList) {
		super(0);
	}
	override pause(): Promise<void> {
		return Promise.resolve().then(() => this.list.onPause?.());
	}
}

describe('the search feed sends the whole list in slices', () => {
	/** The parts the backend was sent: by which call, their files, and whether more were to follow. */
	async function sentParts(list: ChangingList): Promise<{ call: string; files: string[]; more: boolean | undefined }[]> {
		const parts: { call: string; files: string[]; more: boolean | undefined }[] = [];
		const displays = (files: FileBatch) => batchFiles(files).map(f => f.display);
		const backend = {
			reset: (_setup: unknown, files: FileBatch, more?: boolean) => parts.push({ call: 'reset', files: displays(files), more }),
			extendReset: (files: FileBatch, more?: boolean) => parts.push({ call: 'extendReset', files: displays(files), more }),
			update: () => undefined,
		} as unknown as SearchBackend;
		const feed = new SearchFeed({
			files: list,
			folders: { folders: () => [{ path: '/ws', name: 'ws' }], onDidChange: new Emitter<void>().event },
			reader: { realpath: async (p: string) => p } as unknown as FileSystemReader,
			settings: new FakeSettings(),
			documents: new FakeDocuments(),
			backend,
			log: nullLogger,
			slices: new EveryStep(list),
		});
		try {
			await feed.ready();
			assert.ok(parts.length > 0, 'the backend was given a list');
			return parts;
		} finally {
			feed.dispose();
		}
	}

	async function sentList(list: ChangingList): Promise<string[]> {
		return (await sentParts(list)).flatMap(part => part.files);
	}

	const names = Array.from({ length: 2000 }, (_, i) => `f${String(i).padStart(4, '0')}.txt`);

	it('takes every file once when nothing changes', async () => {
		assert.deepEqual(await sentList(new ChangingList(names)), names);
	});

	it('sends a long list in parts, in order, only the last saying that no more follow', async () => {
		const many = Array.from({ length: 2 * PART_FILES + 5 }, (_, i) => `g${String(i).padStart(6, '0')}.txt`);
		const parts = await sentParts(new ChangingList(many));
		assert.deepEqual(parts.map(p => [p.call, p.more]), [['reset', true], ['extendReset', true], ['extendReset', false]]);
		assert.ok(parts.every(p => p.files.length <= PART_FILES), 'no part over PART_FILES');
		assert.deepEqual(parts.flatMap(p => p.files), many);
	});

	it('skips no file that stays when files before it are listed or go while it walks', async () => {
		const list = new ChangingList(names);
		let pauses = 0;
		list.onPause = () => {
			pauses++;
			if (pauses === 3) {
				// Three files early in the order go and two come: every later file moves.
				list.files = list.files.filter(f => !['f0001.txt', 'f0002.txt', 'f0003.txt'].includes(f.display)).concat([file('a-new.txt'), file('b-new.txt')]).sort(byUri);
			}
		};
		const sent = await sentList(list);
		const stayed = names.filter(n => !['f0001.txt', 'f0002.txt', 'f0003.txt'].includes(n));
		assert.deepEqual(stayed.filter(n => !sent.includes(n)), [], 'files that stayed and were not sent');
		assert.equal(new Set(sent).size, sent.length, 'no file is sent twice');
	});
});
