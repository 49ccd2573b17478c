import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { FileIndex, IndexDelta } from '../../src/core/files/fileIndex';

/** Writes `rel` under `root`, making its folders; its text is its own name unless given. Returns its path. */
export function writeUnder(root: string, rel: string, text = rel): string {
	const abs = path.join(root, rel);
	mkdirSync(path.dirname(abs), { recursive: true });
	writeFileSync(abs, text);
	return abs;
}

/** Applies watcher events to `index` as the files provider does: one batch, changes visible when it is done. */
export async function applyWatcherBatch(index: FileIndex, root: string, kind: 'created' | 'deleted', rels: readonly string[]): Promise<IndexDelta> {
	const delta: IndexDelta = { updated: [], listChanged: false };
	await index.applyBatch(rels.map(rel => ({ kind, path: path.join(root, rel) })), delta);
	return delta;
}
