import * as assert from 'node:assert/strict';
import { RowLook, ShownRows } from '../../../src/picker/shownRows';

const rows = (): RowLook[] => [
	{ kind: -1, label: 'workspace · Files' },
	{ key: 'ws|file:///a.ts', label: '$(file) a.ts', description: 'src  1 KB' },
	{ kind: -1, label: 'Text matches · 1 match in 1 file' },
	{ key: 'ws|file:///a.ts?lines=3', label: 'src/a.ts:3', description: 'Text match', detail: 'const a = 1;', icon: 'search' },
];

// Pick Resources sends its rows (and the selection it last heard of) only when they look
// different: sending them again drops a tick whose event has not reached the extension yet.
describe('the rows a picker shows last', () => {
	it('are new the first time, the same when rebuilt alike (new objects, same look)', () => {
		const shown = new ShownRows();
		assert.equal(shown.changed(rows()), true);
		assert.equal(shown.changed(rows()), false);
		assert.equal(shown.changed(rows().map(r => ({ ...r }))), false);
	});

	it('differ when any row\'s key, kind, text or icon changes, or rows move, come or go', () => {
		const variants: ((r: RowLook[]) => RowLook[])[] = [
			r => r.map((x, i) => i === 1 ? { ...x, key: 'other|file:///a.ts' } : x),
			r => r.map((x, i) => i === 2 ? { ...x, kind: 0 } : x),
			r => r.map((x, i) => i === 3 ? { ...x, label: 'src/a.ts:4' } : x),
			r => r.map((x, i) => i === 1 ? { ...x, description: 'src  2 KB' } : x),
			r => r.map((x, i) => i === 3 ? { ...x, detail: 'const a = 2;' } : x),
			r => r.map((x, i) => i === 3 ? { ...x, icon: 'info' } : x),
			r => [r[0], r[2], r[1], r[3]],
			r => r.slice(0, 3),
			r => [...r, { key: 'ws|file:///b.ts', label: '$(file) b.ts' }],
		];
		for (const [i, variant] of variants.entries()) {
			const shown = new ShownRows();
			shown.changed(rows());
			assert.equal(shown.changed(variant(rows())), true, `variant ${i}`);
			assert.equal(shown.changed(variant(rows())), false, `variant ${i} again`);
		}
	});

	it('treat a field left out and one set to undefined alike', () => {
		const shown = new ShownRows();
		shown.changed([{ label: 'x' }]);
		assert.equal(shown.changed([{ label: 'x', description: undefined }]), false);
	});
});
