import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { ListedRead } from '../../../src/core/ports';
import { readListedFileSync } from '../../../src/node/nodeFileSystem';

const MAX = 1024 * 1024;

function textOf(read: ListedRead): string | undefined {
	return read.result.kind === 'ok' ? Buffer.from(read.result.bytes).toString('utf8') : undefined;
}

// The index's bulk reads are told each file's size as listed, which spares a stat when the file
// still has it. Whatever size is given, the bytes must be the file's bytes now: a signature made
// from fewer would rule the file out of searches for what it holds.
describe('reads of listed files, given the listed size', () => {
	let dir: string;
	beforeEach(() => { dir = mkdtempSync(path.join(os.tmpdir(), 'listed-reads-')); });
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it('give the whole file whatever size was listed (grown, shrunk, same, none)', () => {
		const file = path.join(dir, 'a.txt');
		fc.assert(fc.property(fc.string({ maxLength: 300 }), fc.option(fc.nat({ max: 400 }), { nil: undefined }), (text, listed) => {
			writeFileSync(file, text);
			const scratch = { buffer: Buffer.allocUnsafeSlow(16) };
			assert.equal(textOf(readListedFileSync(file, MAX, scratch, listed)), text);
		}), { numRuns: 300 });
	});

	it('keep the scratch buffer big enough for the next file, after a small one grew it', () => {
		const scratch = { buffer: Buffer.allocUnsafeSlow(4) };
		writeFileSync(path.join(dir, 'big.txt'), 'x'.repeat(5000));
		writeFileSync(path.join(dir, 'small.txt'), 'tiny');
		assert.equal(textOf(readListedFileSync(path.join(dir, 'big.txt'), MAX, scratch, 5000)), 'x'.repeat(5000));
		assert.equal(textOf(readListedFileSync(path.join(dir, 'small.txt'), MAX, scratch, 4)), 'tiny');
	});

	it('say "not a file" for a folder that took a listed file\'s name', () => {
		mkdirSync(path.join(dir, 'was-a-file'));
		const scratch = { buffer: Buffer.allocUnsafeSlow(16) };
		assert.equal(readListedFileSync(path.join(dir, 'was-a-file'), MAX, scratch, 10).result.kind, 'not-a-file');
	});

	it('say "too large" for a file over the cap even when listed under it', () => {
		writeFileSync(path.join(dir, 'grew.txt'), 'y'.repeat(300));
		const scratch = { buffer: Buffer.allocUnsafeSlow(16) };
		assert.equal(readListedFileSync(path.join(dir, 'grew.txt'), 200, scratch, 100).result.kind, 'too-large');
	});

	it('still say where a link led when its size was listed', () => {
		writeFileSync(path.join(dir, 'target.txt'), 'linked text');
		symlinkSync(path.join(dir, 'target.txt'), path.join(dir, 'link.txt'));
		const scratch = { buffer: Buffer.allocUnsafeSlow(16) };
		const read = readListedFileSync(path.join(dir, 'link.txt'), MAX, scratch, 11);
		assert.equal(textOf(read), 'linked text');
		assert.equal(read.realPath, path.join(dir, 'target.txt'));
	});
});
