#!/usr/bin/env node
// @ts-check
// First step of `npm test`, `npm start`, `npm run bench` and `bench:profile`: install the
// project's packages when a fresh clone has none or package-lock.json moved on, before anything
// needs them (the TypeScript loader needs esbuild).
import { ensureDependencies } from './dependencies.mjs';

try {
	ensureDependencies();
} catch (err) {
	console.error(`[deps] FAILED: ${err instanceof Error ? err.message : err}`);
	process.exitCode = 1;
}
