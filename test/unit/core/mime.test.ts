import * as assert from 'node:assert/strict';
import { decodeText, isBinaryMime, mimeTypeForName } from '../../../src/core/mime';

describe('mime', () => {
	it('names source files as text, not as registries do', () => {
		assert.equal(mimeTypeForName('index.ts'), 'text/x-typescript');
		assert.equal(mimeTypeForName('README.md'), 'text/markdown');
		assert.equal(mimeTypeForName('Makefile'), 'text/x-makefile');
		assert.equal(mimeTypeForName('photo.PNG'), 'image/png');
		assert.equal(mimeTypeForName('noext'), undefined);
		assert.equal(mimeTypeForName('.hidden'), undefined);
	});

	it('decodes UTF-8 and refuses NUL bytes and invalid UTF-8', () => {
		assert.equal(decodeText(Buffer.from('héllo 文件')), 'héllo 文件');
		assert.equal(decodeText(Buffer.from([0x61, 0x00, 0x62])), undefined);
		assert.equal(decodeText(Buffer.from([0x63, 0x61, 0x66, 0xe9])), undefined);
		assert.equal(decodeText(Buffer.alloc(0)), '');
	});

	it('knows which types are only ever binary', () => {
		assert.equal(isBinaryMime('image/png'), true);
		assert.equal(isBinaryMime('image/svg+xml'), false);
		assert.equal(isBinaryMime('text/plain'), false);
		assert.equal(isBinaryMime(undefined), false);
	});
});
