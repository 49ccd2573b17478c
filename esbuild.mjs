// Bundles the extension (vscode external) and the headless CLI into dist/.
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');
const production = !process.argv.includes('--dev');

/** @type {import('esbuild').BuildOptions} */
const common = {
	bundle: true,
	platform: 'node',
	target: 'node20',
	format: 'cjs',
	minify: production,
	sourcemap: production ? false : 'inline',
	logLevel: 'info',
	legalComments: 'none',
	metafile: true,
};

/**
 * The Claude tokenizer's vocabulary (2.3 MB) is its own bundle, dist/claudeTokenizer.js, that
 * src/picker/tokenCount.ts requires on first use: the main bundles keep the `require` as it is,
 * and it resolves next to them at run time (and next to the compiled source in tests).
 */
const lazyTokenizer = {
	name: 'lazy-tokenizer',
	setup(build) {
		build.onResolve({ filter: /^\.\/claudeTokenizer$/ }, () => ({ path: './claudeTokenizer.js', external: true }));
	},
};

/**
 * The SDK's packages pick their default JSON Schema validator through a `_shims` import whose
 * Node variant bundles AJV; src/shims/ gives them the smaller validator the SDK also ships
 * (why: src/shims/mcpClientShims.ts). Half a megabyte less in each bundle, same behaviour.
 */
const sdkShims = {
	name: 'mcp-sdk-shims',
	setup(build) {
		build.onResolve({ filter: /^@modelcontextprotocol\/(client|server)\/_shims$/ }, args => ({
			path: new URL(`./src/shims/mcp${args.path.includes('/client/') ? 'Client' : 'Server'}Shims.ts`, import.meta.url).pathname,
		}));
	},
};

const builds = [
	{ ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], plugins: [lazyTokenizer, sdkShims] },
	{ ...common, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' }, plugins: [lazyTokenizer, sdkShims] },
	{ ...common, entryPoints: ['src/picker/claudeTokenizer.ts'], outfile: 'dist/claudeTokenizer.js' },
	// The worker thread that walks the workspace (src/node/threadWalker.ts starts it from dist/).
	{ ...common, entryPoints: ['src/node/walkWorker.ts'], outfile: 'dist/walkWorker.js' },
];

if (watch) {
	for (const options of builds) {
		const ctx = await esbuild.context(options);
		await ctx.watch();
	}
} else {
	await Promise.all(builds.map(options => esbuild.build(options)));
}
