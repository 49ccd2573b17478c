#!/usr/bin/env node
// @ts-check
// JavaScript, not TypeScript like the rest of scripts/: it runs before node_modules (and so the
// TypeScript loader's esbuild) exists. First step of `npm test`, `npm start` and `npm run bench`:
// install the project's packages when a fresh clone has none or package-lock.json moved on,
// before anything needs them.
import { ensureDependencies } from './dependencies.mjs';

try {
	ensureDependencies();
} catch (err) {
	console.error(`[deps] FAILED: ${err instanceof Error ? err.message : err}`);
	process.exitCode = 1;
}
