import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

interface QuadgramSignerScript {
	SIGNER_MODULE: string;
	signerModuleSource(root: string): Promise<string>;
}

const root = path.join(__dirname, '../../../..');

describe('the signature loop\'s compiled module', () => {
	it('is what `npm run build:signer` makes of quadgramSigner.wat now', async () => {
		register(pathToFileURL(path.join(root, 'scripts', 'bootstrap', 'typescriptHooks.mjs')).href);
		const script = await import(pathToFileURL(path.join(root, 'scripts', 'build', 'quadgramSigner.ts')).href) as QuadgramSignerScript;
		const committed = readFileSync(path.join(root, script.SIGNER_MODULE), 'utf8');
		assert.equal(committed, await script.signerModuleSource(root), 'run `npm run build:signer` after editing the .wat');
	});
});
