// The build every section measures this one against, in the same run: by default the one the
// last round shipped, or `--previous REF|PATH|none`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../bootstrap/repoRoot.mjs';

/** The build the last round shipped. Moved to the newest landed commit when a round lands. */
export const LAST_LANDED_BUILD = '7fd11b280e91';

/** `--previous none` measures no previous build. */
export const NO_PREVIOUS = 'none';

/**
 * The cli.js of `value`: a path to a cli.js as it is, or a git ref built (once per commit) from
 * `git archive` into .cache/bench/previous/<sha>/ with the dependencies its own lock file names
 * (`npm ci`, no install scripts), since this checkout's node_modules need not hold what an older
 * build imports.
 */
export function previousBuild(value: string, log: (message: string) => void): string {
	if (value.endsWith('.js')) {
		const cli = path.resolve(repoRoot, value);
		if (!existsSync(cli)) throw new Error(`--previous ${value}: no such file`);
		return cli;
	}
	const sha = execFileSync('git', ['rev-parse', '--verify', `${value}^{commit}`], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] }).toString().trim();
	const dir = path.join(repoRoot, '.cache', 'bench', 'previous', sha.slice(0, 12));
	const cli = path.join(dir, 'dist', 'cli.js');
	if (existsSync(cli)) return cli;
	log(`previous build: building ${value} (${sha.slice(0, 12)}) into ${path.relative(repoRoot, dir)} (npm ci, esbuild)`);
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	try {
		execFileSync('sh', ['-c', 'git archive --format=tar "$0" | tar -x -C "$1"', sha, dir], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
		execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
		execFileSync(process.execPath, ['esbuild.mjs'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
	} catch (err) {
		rmSync(dir, { recursive: true, force: true });
		const stderr = err instanceof Error && 'stderr' in err ? String(err.stderr) : undefined;
		throw new Error(`--previous ${value}: could not build it: ${(stderr ?? (err instanceof Error ? err.message : String(err))).slice(0, 500)}`);
	}
	if (!existsSync(cli)) throw new Error(`--previous ${value}: the build made no dist/cli.js`);
	return cli;
}
