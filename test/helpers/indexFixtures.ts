import { statSync } from 'node:fs';
import { FileBatch, FileBatchBuilder } from '../../src/core/search/ports';
import { SearchIndex } from '../../src/core/search/searchIndex';
import { NodeFileSystem } from '../../src/node/nodeFileSystem';
import { Fixture } from './fixtureWorkspace';

/** The files `rels` of the fixture's folder `s/` as a list for the search index, with their sizes and times on disk. */
export function indexListing(fx: Fixture, rels: readonly string[]): FileBatch {
	const batch = new FileBatchBuilder(rels.length);
	for (const rel of rels) {
		const stat = statSync(fx.file(`s/${rel}`));
		batch.add({ path: fx.file(`s/${rel}`), display: rel, size: stat.size, mtimeMs: stat.mtimeMs });
	}
	return batch.build();
}

/** An index over the real disk that notes every file it reads to build itself. */
export function countingIndex(): { index: SearchIndex; reads: string[] } {
	const reader = new NodeFileSystem();
	const reads: string[] = [];
	const counting = Object.create(reader) as NodeFileSystem;
	counting.readListedFile = (p, max, scratch, listedSize) => {
		reads.push(p);
		return reader.readListedFile(p, max, scratch, listedSize);
	};
	return { index: new SearchIndex(counting), reads };
}
