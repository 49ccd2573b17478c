// Bundles the extension and the headless CLI into dist/: main.js (the server, the extension with
// vscode external, the CLI's commands), cli.js, and two files loaded apart (tokenizer, walk worker).
import * as esbuild from 'esbuild';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

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
 * The Claude tokenizer's vocabulary (2.3 MB) is a bundle of its own, dist/claudeTokenizer.js,
 * which src/picker/tokenCount.ts requires on first use (next to the compiled source in tests):
 * held in the main bundle, it would be parsed at every activation and every `serve`.
 */
const tokenizerBundle = {
	name: 'tokenizer-bundle',
	setup(build) {
		build.onResolve({ filter: /^\.\/claudeTokenizer$/ }, () => ({ path: './claudeTokenizer.js', external: true }));
	},
};

/**
 * The server, the picker and the CLI's commands are bundled once, into dist/main.js, which is
 * both the extension's `main` and where dist/cli.js takes the command it runs. Every part of it
 * is reached through a `require()` made when it is needed, so esbuild keeps each module
 * unevaluated until then: activation evaluates the extension's modules, `serve --stdio` the stdio
 * server's, and neither the bridge's MCP client nor (for stdio) the HTTP stack.
 */
const CLI_COMMANDS = ['bridgeCommand', 'serveHttp', 'serveStdio'];
const MAIN_ENTRY = `
export function activate(context) { return require('./src/extension').activate(context); }
export function deactivate() { return require('./src/extension').deactivate(); }
export const cliCommands = { ${CLI_COMMANDS.map(name => `${name}: () => require('./src/cli/${name}')`).join(', ')} };
`;
/** dist/cli.js's `require('./cli/<command>')` becomes `require('./main.js').cliCommands.<command>()`. */
const commandsFromMain = {
	name: 'commands-from-main',
	setup(build) {
		const filter = new RegExp(`^\\./cli/(${CLI_COMMANDS.join('|')})$`);
		build.onResolve({ filter }, args => ({ path: args.path.slice('./cli/'.length), namespace: 'main-bundle' }));
		build.onLoad({ filter: /.*/, namespace: 'main-bundle' }, args => ({ contents: `module.exports = require('./main.js').cliCommands.${args.path}();`, loader: 'js' }));
		build.onResolve({ filter: /^\.\/main\.js$/ }, () => ({ path: './main.js', external: true }));
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
	{
		...common, stdin: { contents: MAIN_ENTRY, resolveDir: path.dirname(fileURLToPath(import.meta.url)), sourcefile: 'main.js', loader: 'js' },
		outfile: 'dist/main.js', external: ['vscode'], plugins: [tokenizerBundle, sdkShims],
	},
	{ ...common, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' }, plugins: [commandsFromMain] },
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
