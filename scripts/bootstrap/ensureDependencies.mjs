#!/usr/bin/env node
// @ts-check
// `npm run bench` (and anything else that builds first): install the project's packages when a
// fresh clone has none or package-lock.json moved on. `npm test` and `npm start` call it themselves.
import { ensureDependencies } from './dependencies.mjs';

try {
	ensureDependencies();
} catch (err) {
	console.error(`[deps] FAILED: ${err instanceof Error ? err.message : err}`);
	process.exitCode = 1;
}
