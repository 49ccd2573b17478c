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
 * Bundles that another bundle `require`s only when needed, each kept as a plain `require` of its
 * own file next to the requiring bundle (and next to the compiled source in tests):
 * - the Claude tokenizer's vocabulary (2.3 MB), dist/claudeTokenizer.js, which
 *   src/picker/tokenCount.ts requires on first use;
 * - the CLI's commands (src/cli/<command>.ts), dist/<command>.js, which src/cli.ts requires for
 *   the command it runs (beside it, not in a dist/cli/ folder, so every bundle finds
 *   dist/walkWorker.js next to itself): a
 *   bundle evaluates all it holds at load (`format: 'cjs'`), and `serve --stdio` would otherwise
 *   pay for the bridge's MCP client and the HTTP stack it never uses (about 10 MiB resident).
 */
const LAZY_BUNDLES = { './claudeTokenizer': 'src/picker/claudeTokenizer.ts', './cli/bridgeCommand': 'src/cli/bridgeCommand.ts', './cli/serveStdio': 'src/cli/serveStdio.ts', './cli/serveHttp': 'src/cli/serveHttp.ts' };
/** './cli/serveStdio' -> 'serveStdio': every bundle is a file of dist/ itself. */
const bundleName = specifier => specifier.slice(specifier.lastIndexOf('/') + 1);
const lazyBundles = {
	name: 'lazy-bundles',
	setup(build) {
		build.onResolve({ filter: /^\.\/(claudeTokenizer|cli\/\w+)$/ }, args => (args.path in LAZY_BUNDLES ? { path: `./${bundleName(args.path)}.js`, external: true } : undefined));
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
	{ ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], plugins: [lazyBundles, sdkShims] },
	{ ...common, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' }, plugins: [lazyBundles] },
	...Object.entries(LAZY_BUNDLES).map(([specifier, entry]) => ({ ...common, entryPoints: [entry], outfile: `dist/${bundleName(specifier)}.js`, plugins: [lazyBundles, sdkShims] })),
	// The worker thread that walks the workspace (src/node/threadWalker.ts starts it from dist/).
	{ ...common, entryPoints: ['src/node/walkWorker.ts'], outfile: 'dist/walkWorker.js' },
	// The worker thread that holds the search index (src/node/threadSearchBackend.ts starts it from dist/).
	{ ...common, entryPoints: ['src/node/searchWorker.ts'], outfile: 'dist/searchWorker.js' },
];

if (watch) {
	for (const options of builds) {
		const ctx = await esbuild.context(options);
		await ctx.watch();
	}
} else {
	await Promise.all(builds.map(options => esbuild.build(options)));
}
