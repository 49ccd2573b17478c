import * as assert from 'node:assert/strict';
import { ResourceEntry } from '../../../src/core/resource';
import { withPriority } from '../../../src/core/relevance/withPriority';

/** What annotating meant before the literal: copies, the entry's keys first, in their order. */
function reference(entry: ResourceEntry, priority: number): ResourceEntry {
	return Object.assign({}, entry, { annotations: Object.assign({}, entry.annotations, { priority }) });
}

describe('withPriority', () => {
	const uri = 'file:///ws/src/a.ts';
	const shapes: ResourceEntry[] = [
		// as the file index builds them, with and without a known MIME type
		{ uri, name: 'src/a.ts', mimeType: 'text/x-typescript', size: 12, annotations: { lastModified: '2026-01-02T03:04:05.678Z' } },
		{ uri, name: 'src/a.unknown', mimeType: undefined, size: 0, annotations: { lastModified: '2026-01-02T03:04:05.678Z' } },
		// anything else takes the generic copy
		{ uri, name: 'a', title: 'A', annotations: { lastModified: '2026-01-02T03:04:05.678Z' } },
		{ uri, name: 'a', description: 'about a', size: 3 },
		{ uri, name: 'a' },
		{ annotations: { lastModified: '2026-01-02T03:04:05.678Z' }, name: 'a', uri },
		{ uri, name: 'a', annotations: { priority: 0.9, lastModified: '2026-01-02T03:04:05.678Z' } },
		{ uri, name: 'a', annotations: { audience: ['assistant'] } },
	];

	it('gives every entry the same keys, order and values as copying it with Object.assign', () => {
		for (const entry of shapes) {
			const annotated = withPriority(entry, 0.45);
			assert.deepStrictEqual(annotated, reference(entry, 0.45), JSON.stringify(entry));
			assert.equal(JSON.stringify(annotated), JSON.stringify(reference(entry, 0.45)), JSON.stringify(entry));
		}
	});

	it('never changes the entry it is given, nor shares annotations between entries', () => {
		const entry = shapes[0];
		const before = JSON.stringify(entry);
		const a = withPriority(entry, 0.2);
		const b = withPriority(entry, 0.2);
		assert.equal(JSON.stringify(entry), before);
		assert.notEqual(a, entry);
		assert.notEqual(a.annotations, b.annotations);
		assert.equal(a.annotations?.audience, undefined, 'a file is for user and assistant alike: no audience spelled out');
	});
});
