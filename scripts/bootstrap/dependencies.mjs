// @ts-check
// JavaScript, not TypeScript like the rest of scripts/: it runs before node_modules (and so the
// TypeScript loader's esbuild) exists. The project's own npm packages, installed on demand so that
// `npm start`, `npm test` and `npm run bench` work on a fresh clone with nothing typed before them.
// Node built-ins only.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './repoRoot.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * The environment without the `npm_*` variables an outer `npm run` exports: the inner npm would
 * read them as its own config (and warn about any it does not know, such as a user's `nodedir`).
 * npm writes them in lower case; upper-case `NPM_CONFIG_*` (a CI's registry, say) are the
 * user's own and stay.
 */
export function withoutNpmConfig(env = process.env) {
	return Object.fromEntries(Object.entries(env).filter(([key]) => !key.startsWith('npm_')));
}

/**
 * @param {string} file
 * @returns {{ packages?: Record<string, { version?: string, optional?: boolean }> } | undefined}
 */
function readJson(file) {
	try { return JSON.parse(fs.readFileSync(file, 'utf8')); } catch { return undefined; }
}

/** Why node_modules does not hold what package-lock.json locks, or undefined when it does. */
export function staleReason(root = repoRoot) {
	const lockFile = path.join(root, 'package-lock.json');
	const installedFile = path.join(root, 'node_modules', '.package-lock.json');
	if (!fs.existsSync(installedFile)) { return 'node_modules is missing'; }
	if (fs.statSync(installedFile).mtimeMs >= fs.statSync(lockFile).mtimeMs) { return undefined; }
	// The lock file is newer, which a checkout alone also causes (a clone or worktree next to an
	// existing node_modules): reinstall only when a locked version really differs.
	const locked = readJson(lockFile)?.packages ?? {};
	const installed = readJson(installedFile)?.packages ?? {};
	for (const [where, entry] of Object.entries(locked)) {
		// Optional packages for other platforms are locked but never installed.
		if (where === '' || entry.optional) { continue; }
		if (installed[where]?.version !== entry.version) { return 'package-lock.json changed since the last install'; }
	}
	for (const [where, entry] of Object.entries(installed)) {
		if (locked[where]?.version !== entry.version) { return 'package-lock.json changed since the last install'; }
	}
	return undefined;
}

/** Runs `npm ci` first when node_modules is missing or out of date; one line says so. */
export function ensureDependencies(root = repoRoot) {
	const reason = staleReason(root);
	if (reason === undefined) { return false; }
	console.log(`[deps] ${reason}: running npm ci (about a minute the first time)`);
	const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit', env: withoutNpmConfig() });
	// Said as what to do next; ensureDependencies.mjs prints the message alone, no stack trace.
	if (result.error) { throw new Error(`could not run npm ci (${result.error.message}): is npm on PATH?`); }
	if (result.status !== 0) {
		throw new Error(`npm ci exited with ${result.status ?? result.signal}; its output is above. Fix what it says (often the network or the npm registry), then run this again.`);
	}
	return true;
}
