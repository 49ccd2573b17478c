import { statSync } from 'node:fs';
import * as path from 'node:path';
import { Emitter } from '../../src/common/event';
import { Logger } from '../../src/common/logger';
import { FileBatch, FileBatchBuilder } from '../../src/core/search/ports';
import { SearchIndex } from '../../src/core/search/searchIndex';
import { NodeFileSystem } from '../../src/node/nodeFileSystem';
import { Fixture } from './fixtureWorkspace';

/** The files `rels` (`/`-separated, relative to `root`) as a list for the search index, with their sizes and times on disk. */
export function listingUnder(root: string, rels: readonly string[]): FileBatch {
	const batch = new FileBatchBuilder(rels.length);
	for (const rel of rels) {
		const absPath = path.join(root, ...rel.split('/'));
		const stat = statSync(absPath);
		batch.add({ path: absPath, display: rel, size: stat.size, mtimeMs: stat.mtimeMs });
	}
	return batch.build();
}

/** The files `rels` of the fixture's folder `s/` as a list for the search index. */
export function indexListing(fx: Fixture, rels: readonly string[]): FileBatch {
	return listingUnder(fx.file('s'), rels);
}

/** Every line a search backend logs (its worker's debug lines included), as they come. */
export class LoggedLines implements Logger {
	readonly lines: string[] = [];
	private readonly emitter = new Emitter<void>();
	readonly onDidLog = this.emitter.event;
	debug(message: string): void {
		this.add(message);
	}
	info(message: string): void {
		this.add(message);
	}
	warn(message: string): void {
		this.add(message);
	}
	error(message: string, err?: unknown): void {
		this.add(`${message} ${String(err ?? '')}`);
	}
	/** Whether a line starting with `prefix` was logged. */
	has(prefix: string): boolean {
		return this.lines.some(l => l.startsWith(prefix));
	}
	private add(line: string): void {
		this.lines.push(line);
		this.emitter.fire();
	}
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
