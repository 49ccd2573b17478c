import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { VERSION } from '../../src/version';

describe('version', () => {
	it('matches package.json', () => {
		const pkg = JSON.parse(readFileSync(path.join(__dirname, '../../../package.json'), 'utf8'));
		assert.equal(VERSION, pkg.version);
	});
});
