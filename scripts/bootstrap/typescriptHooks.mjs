// @ts-check
// JavaScript, not TypeScript like the rest of scripts/: these hooks are what load TypeScript.
// Node module hooks that run the tooling's TypeScript (scripts/, test/e2e/) straight from source.
// Why a loader and not a build step: the scripts start each other and are edited and rerun
// often; transforming each file as Node loads it keeps one way to run them with nothing to
// rebuild. Why esbuild: it already builds the extension (a dependency we have), strips types
// without type-checking (tsc does that in `npm run typecheck`), and Node 20, which we support,
// cannot strip types itself. Registered by ./registerTypeScript.mjs.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

/**
 * TypeScript sources import each other as `./file.js` (module "nodenext"); on disk that is
 * `./file.ts` until something builds it.
 * @param {string} specifier
 * @param {{ parentURL?: string }} context
 * @param {(specifier: string, context: { parentURL?: string }) => Promise<{ url: string, format?: string | null }>} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
	if (/^\.\.?\//.test(specifier) && specifier.endsWith('.js') && context.parentURL?.startsWith('file:')) {
		const source = new URL(`${specifier.slice(0, -'.js'.length)}.ts`, context.parentURL);
		if (existsSync(fileURLToPath(source))) {
			return { url: source.href, format: 'module', shortCircuit: true };
		}
	}
	return nextResolve(specifier, context);
}

/**
 * @param {string} url
 * @param {{ format?: string | null }} context
 * @param {(url: string, context: { format?: string | null }) => Promise<{ format: string, source?: string | ArrayBuffer | Uint8Array | null }>} nextLoad
 */
export async function load(url, context, nextLoad) {
	if (!url.startsWith('file:') || !url.endsWith('.ts') || url.includes('/node_modules/')) {
		return nextLoad(url, context);
	}
	const file = fileURLToPath(url);
	const { code } = await transform(await readFile(file, 'utf8'), {
		loader: 'ts', format: 'esm', target: 'node20', sourcefile: file, sourcemap: 'inline',
	});
	return { format: 'module', source: code, shortCircuit: true };
}
