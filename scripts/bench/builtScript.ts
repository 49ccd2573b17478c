// TypeScript the bench runs where scripts/bootstrap's loader should not be: the probe preloaded
// into a server under test and the minimal SDK server (the loader would start an esbuild service
// and a hooks thread inside the measured process, in its memory and CPU), and src/ modules the
// picker section measures (written for the extension's bundler: imports without extensions).
// Each is bundled by esbuild into .cache/bench/scripts/ when a run needs it, npm packages left
// to node_modules.
import * as path from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from '../bootstrap/repoRoot.mjs';

/** `entry` (a file, or module text resolved from the repository's root) bundled as `<name>.mjs`; its path. */
export async function builtScript(name: string, entry: string | { contents: string }): Promise<string> {
	const outfile = path.join(repoRoot, '.cache', 'bench', 'scripts', `${name}.mjs`);
	await build({
		...typeof entry === 'string' ? { entryPoints: [entry] } : { stdin: { contents: entry.contents, resolveDir: repoRoot, loader: 'ts' } },
		outfile, bundle: true, packages: 'external', platform: 'node', format: 'esm', target: 'node20', logLevel: 'error',
	});
	return outfile;
}
