#!/usr/bin/env node
// `npm run build:signer`: compiles src/core/search/quadgramSigner.wat into quadgramSignerWasm.ts.
// Edit the .wat, then run this.
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import { failureText } from '../lib/errorText.js';
import { SIGNER_MODULE, signerModuleSource } from './quadgramSigner.js';

try {
	const source = await signerModuleSource(repoRoot);
	const file = path.join(repoRoot, SIGNER_MODULE);
	let current = '';
	try {
		current = readFileSync(file, 'utf8');
	} catch {
		// Not written yet.
	}
	if (current === source) {
		console.log(`[build:signer] ${SIGNER_MODULE} is current`);
	} else {
		writeFileSync(file, source);
		console.log(`[build:signer] wrote ${SIGNER_MODULE}`);
	}
} catch (err) {
	console.error(`[build:signer] FAILED: ${failureText(err)}`);
	process.exitCode = 1;
}
