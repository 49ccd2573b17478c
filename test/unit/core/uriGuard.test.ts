import * as assert from 'node:assert/strict';
import { ResourceNotFound } from '../../../src/core/errors';
import { fileUri, fileUriToPath } from '../../../src/core/uriGuard';

describe('uriGuard', () => {
	it('round-trips paths with unicode, spaces and URL metacharacters', () => {
		for (const p of ['/ws/a.txt', '/ws/ünïcödé 文件.txt', '/ws/with space & #hash?.txt', '/ws/100%.md']) {
			assert.equal(fileUriToPath(fileUri(p)), p);
		}
	});

	it('accepts the localhost host and lowercase/uppercase scheme', () => {
		assert.equal(fileUriToPath('file://localhost/ws/a.txt'), '/ws/a.txt');
		assert.equal(fileUriToPath('FILE:///ws/a.txt'), '/ws/a.txt');
	});

	const refused = [
		'file:///ws/../etc/passwd',
		'file:///ws/%2e%2e/etc/passwd',
		'file:///ws/%2E%2E/etc/passwd',
		'file:///ws/.%2e/etc/passwd',
		'file:///ws/./a.txt',
		'file:///ws/%2e/a.txt',
		'file:///ws/a%2f..%2f..%2fetc%2fpasswd',
		'file:///ws/a%00.txt',
		'file:///ws//a.txt',
		'file:///ws/dir/',
		'file:///ws/%zz.txt',
		'file:///ws/a.txt?x=1',
		'file:///ws/a.txt#frag',
		'file://evil.example/ws/a.txt',
		'file:ws/a.txt',
		'http://127.0.0.1/ws/a.txt',
		'/ws/a.txt',
		'file:///',
		'',
	];
	for (const uri of refused) {
		it(`refuses ${JSON.stringify(uri)}`, () => {
			assert.throws(() => fileUriToPath(uri), (err: unknown) => err instanceof ResourceNotFound && err.uri === uri);
		});
	}

	it('treats an encoded backslash as part of a POSIX file name, not a separator', () => {
		assert.equal(fileUriToPath('file:///ws/a%5c..%5cb'), '/ws/a\\..\\b');
	});
});
