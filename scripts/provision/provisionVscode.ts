#!/usr/bin/env node
// `npm run provision`: installs the private real-VS-Code test environment on demand
// (code-server, Node 24, playwright-core in .cache/vscode-env; Debian chromium + libkrb5-dev).
// Fast no-op when already provisioned. `--force` reinstalls.
import { failureText } from '../lib/errorText.js';
import { ensureProvisioned, envDir, PINNED } from '../lib/vscodeEnv.js';

try {
	const installed = await ensureProvisioned({ force: process.argv.includes('--force') });
	if (!installed) {
		console.log(`[provision] already provisioned (${Object.entries(PINNED).map(([n, v]) => `${n}@${v}`).join(', ')}) in ${envDir}`);
	}
} catch (err) {
	console.error(`[provision] FAILED: ${failureText(err)}`);
	process.exit(1);
}
