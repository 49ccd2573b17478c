import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { isInsideFolder, relativeInside } from '../../../src/common/pathContainment';

describe('path containment', () => {
	it('relativeInside keeps paths inside the root only', () => {
		assert.equal(relativeInside('/ws', '/ws/a/b.txt'), 'a/b.txt');
		assert.equal(relativeInside('/ws', '/ws/..hidden'), '..hidden');
		assert.equal(relativeInside('/ws', '/ws'), undefined);
		assert.equal(relativeInside('/ws', '/ws2/a'), undefined);
		assert.equal(relativeInside('/ws', '/etc/passwd'), undefined);
	});

	it('counts the folder itself and what is under it as inside', () => {
		assert.equal(isInsideFolder('/a/b', '/a/b'), true);
		assert.equal(isInsideFolder('/a/b', '/a/b/'), true);
		assert.equal(isInsideFolder('/a/b/', '/a/b/c'), true);
		assert.equal(isInsideFolder('/a/b', '/a/b/c/d.txt'), true);
		assert.equal(isInsideFolder('/', '/anything'), true);
	});

	it('is not fooled by a shared name prefix', () => {
		assert.equal(isInsideFolder('/a/b', '/a/bc'), false);
		assert.equal(isInsideFolder('/a/b', '/a/b-other/c'), false);
		assert.equal(isInsideFolder('/a/bc', '/a/b'), false);
		assert.equal(relativeInside('/a/b', '/a/bc/x'), undefined);
	});

	it('normalises .. segments before deciding', () => {
		assert.equal(isInsideFolder('/a/b', '/a/b/../c'), false);
		assert.equal(isInsideFolder('/a/b', '/a/b/c/../../b/d'), true);
		assert.equal(isInsideFolder('/a/b', '/a/b/..'), false);
		assert.equal(relativeInside('/a/b', '/a/b/c/../d'), 'd');
		// A name that starts with two dots is a name, not a way out.
		assert.equal(isInsideFolder('/a/b', '/a/b/..c'), true);
		assert.equal(isInsideFolder('/a', '/b'), false);
		assert.equal(isInsideFolder('/a/b', '/a'), false);
	});

	it('follows Windows rules with the Windows path module: backslashes, drives, drive-letter case', () => {
		const win = path.win32;
		assert.equal(isInsideFolder('C:\\a\\b', 'C:\\a\\b\\c.txt', win), true);
		assert.equal(isInsideFolder('C:\\a\\b', 'C:/a/b/c.txt', win), true);
		assert.equal(isInsideFolder('C:\\a\\b', 'c:\\A\\B\\c.txt', win), true);
		assert.equal(isInsideFolder('C:\\a\\b', 'C:\\a\\bc', win), false);
		assert.equal(isInsideFolder('C:\\a\\b', 'C:\\a\\b\\..\\c', win), false);
		assert.equal(isInsideFolder('C:\\a\\b', 'D:\\a\\b\\c', win), false);
		assert.equal(relativeInside('C:\\ws', 'C:\\ws\\src\\a.ts', win), 'src/a.ts');
	});

	it('treats backslashes as part of a name on POSIX', () => {
		assert.equal(isInsideFolder('/a/b', '/a/b/x\\..\\..\\c', path.posix), true);
		assert.equal(relativeInside('/a', '/a/b\\c', path.posix), 'b\\c');
	});
});
