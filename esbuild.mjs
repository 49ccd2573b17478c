// Bundles the extension and the headless CLI into dist/: main.js (the server, the extension with
// vscode external, the CLI's commands), cli.js, and two files loaded apart (tokenizer, walk worker).
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { createRequire } from 'node:module';
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
	// web-tree-sitter's ES module build finds its files through `import.meta.url`, which a CommonJS
	// bundle does not have: take its CommonJS build, as `require` would.
	alias: { 'web-tree-sitter': createRequire(import.meta.url).resolve('web-tree-sitter') },
};

/**
 * Bundles of their own, required on first use (next to the compiled source in tests), so the
 * main bundle does not parse them at every activation and every `serve`: the Claude tokenizer's
 * vocabulary, dist/claudeTokenizer.js (src/picker/tokenCount.ts), and the tree-sitter runtime,
 * dist/treeSitterRuntime.js (src/node/grammars/treeSitterParser.ts, on the first parse).
 */
const LAZY_BUNDLES = { claudeTokenizer: 'src/picker/claudeTokenizer.ts', treeSitterRuntime: 'src/node/grammars/treeSitterRuntime.ts' };
const lazyBundles = {
	name: 'lazy-bundles',
	setup(build) {
		build.onResolve({ filter: /^\.\/(claudeTokenizer|treeSitterRuntime)$/ }, args => ({ path: `${args.path}.js`, external: true }));
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
		outfile: 'dist/main.js', external: ['vscode'], plugins: [lazyBundles, sdkShims],
	},
	{ ...common, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' }, plugins: [commandsFromMain] },
	...Object.entries(LAZY_BUNDLES).map(([name, entry]) => ({ ...common, entryPoints: [entry], outfile: `dist/${name}.js` })),
	// The worker thread that walks the workspace (src/node/threadWalker.ts starts it from dist/).
	{ ...common, entryPoints: ['src/node/walkWorker.ts'], outfile: 'dist/walkWorker.js' },
	// The worker thread that holds the search index (src/node/threadSearchBackend.ts starts it from dist/).
	{ ...common, entryPoints: ['src/node/searchWorker.ts'], outfile: 'dist/searchWorker.js' },
	// The thread that reads and signs files beside it (src/node/threadFileSigners.ts starts it from dist/).
	{ ...common, entryPoints: ['src/node/signerWorker.ts'], outfile: 'dist/signerWorker.js' },
	// The thread that parses with the grammars (src/node/grammars/threadGrammarParser.ts starts it
	// from dist/); it loads dist/treeSitterRuntime.js as the main bundle would.
	{ ...common, entryPoints: ['src/node/grammars/grammarWorker.ts'], outfile: 'dist/grammarWorker.js', plugins: [lazyBundles] },
];

/**
 * The WASM files the grammars need at run time, in dist/grammars/ (src/node/grammars/grammarCatalog.ts
 * names them): the runtime as it is, and one grammar per language served, brotli-compressed
 * (`<name>.wasm.br`: a grammar is mostly tables that compress to a twentieth, and the installed
 * extension would otherwise be mostly grammars; src/node/grammars/treeSitterParser.ts inflates one
 * off the event loop when a file of its language is first parsed). No other of the packages' grammars.
 * VS Code's own set has no C grammar; C's comes from the grammar's own package.
 */
const RUNTIME_FILE = 'web-tree-sitter/web-tree-sitter.wasm';
const GRAMMAR_FILES = [
	...['typescript', 'tsx', 'javascript', 'python', 'go', 'rust', 'java', 'cpp', 'c-sharp', 'ruby', 'php']
		.map(name => `@vscode/tree-sitter-wasm/wasm/tree-sitter-${name}.wasm`),
	'tree-sitter-c/tree-sitter-c.wasm',
];
const brotliCompress = promisify(zlib.brotliCompress);
async function writeGrammars() {
	const require = createRequire(import.meta.url);
	const target = new URL('./dist/grammars/', import.meta.url).pathname;
	mkdirSync(target, { recursive: true });
	copyFileSync(require.resolve(RUNTIME_FILE), path.join(target, path.basename(RUNTIME_FILE)));
	// Which grammar each compressed file was made from, by content (npm gives every installed
	// file the same old time, so times cannot tell): quality 9 takes about two seconds for all of
	// them, so only a grammar that changed is compressed again. Not shipped (.vscodeignore).
	const stampFile = path.join(target, 'compressed-from.json');
	const stamps = existsSync(stampFile) ? JSON.parse(readFileSync(stampFile, 'utf8')) : {};
	const wanted = new Set([path.basename(RUNTIME_FILE), path.basename(stampFile)]);
	await Promise.all(GRAMMAR_FILES.map(async file => {
		const bytes = readFileSync(require.resolve(file));
		const name = `${path.basename(file)}.br`;
		const hash = createHash('sha256').update(bytes).digest('hex');
		wanted.add(name);
		if (stamps[name] === hash && existsSync(path.join(target, name))) {
			return;
		}
		writeFileSync(path.join(target, name), await brotliCompress(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
		stamps[name] = hash;
	}));
	writeFileSync(stampFile, JSON.stringify(stamps, null, '\t'));
	// What an older build left (uncompressed grammars) would otherwise ship beside these.
	for (const name of readdirSync(target)) {
		if (!wanted.has(name)) {
			rmSync(path.join(target, name));
		}
	}
}

const grammars = writeGrammars();
if (watch) {
	for (const options of builds) {
		const ctx = await esbuild.context(options);
		await ctx.watch();
	}
} else {
	await Promise.all(builds.map(options => esbuild.build(options)));
}
await grammars;
