/**
 * Run by `pretenuring.test.ts` in a child `node --allow-natives-syntax --expose-gc`: lists the
 * same page of file entries many times, each page kept alive across a young collection as a page
 * waiting to be sent is, then reports which generation a freshly built entry lands in. Prints one
 * JSON line: `{ literal: boolean[], listed: boolean[], annotated: boolean[] }`, true meaning young.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { FileStore } from '../../src/core/files/fileStore';
import { withPriority } from '../../src/core/relevance/withPriority';
import { ResourceEntry } from '../../src/core/resource';

const PAGE = 1000;
const ROUNDS = 400;

// Natives syntax is only parsed with --allow-natives-syntax, so it cannot sit in compiled code.
const inYoungGeneration = new Function('o', 'return %InYoungGeneration(o)') as (o: object) => boolean;
const minorGc = () => (globalThis as unknown as { gc(options: { type: 'minor' }): void }).gc({ type: 'minor' });

/** Builds pages the way a listing holds them, then the generations of one more entry's objects. */
function generationsAfterPaging(make: (i: number) => ResourceEntry): boolean[] {
	for (let round = 0; round < ROUNDS; round++) {
		const page: ResourceEntry[] = [];
		for (let i = 0; i < PAGE; i++) {
			page.push(make(i));
		}
		minorGc();
		if (page.length !== PAGE) {
			throw new Error('page lost');
		}
	}
	const entry = make(0);
	return [entry, entry.annotations!, ...(entry.annotations!.audience ? [entry.annotations!.audience] : [])].map(inYoungGeneration);
}

async function main(): Promise<void> {
	const store = new FileStore(['ws'], false);
	const root = store.dirs.root(0, path.join(os.tmpdir(), 'ws'));
	for (let i = 0; i < PAGE; i++) {
		store.add(root, `file-${i}.ts`, i, 1_700_000_000_000 + i);
	}
	await store.sortAll(() => undefined);
	// The control: an entry literal of the same shape, which V8 does place in the old generation
	// after this paging. Without it the probe could not tell a fix from a V8 that never pretenures.
	const literal = generationsAfterPaging(i => ({ uri: `file:///ws/${i}`, name: `${i}`, mimeType: 'text/plain', size: i, annotations: { lastModified: `${i}`, priority: 0.2 } }));
	const listed = generationsAfterPaging(i => store.view.at(i)!);
	const annotated = generationsAfterPaging(i => withPriority(store.view.at(i)!, 0.2));
	process.stdout.write(`${JSON.stringify({ literal, listed, annotated })}\n`);
}

void main();
