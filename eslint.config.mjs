// Lint: typescript-eslint's recommended rules, floating promises caught, and the layer rules of
// docs/architecture.md: only src/vscode/** and src/extension.ts import 'vscode'; common/ imports
// nothing outside itself; core/ knows no protocol (SDK, mcp/), no host (node/, Node's I/O
// modules) and no editor; mcp/ is the server side and runs headless; client/ is the one MCP
// client library, which shares only the lock file and the token header with the server; the
// picker reads through client/, never the providers of core/; node/ serves both hosts; nothing
// imports the composition roots (extension.ts, cli.ts); the headless host (cli.ts) and the
// plain-Node tests reach no editor code.
// Every way of naming a module is checked: import, export-from, import(), require(), import types.
// test/unit/lint/layers.test.ts proves each rule fails a forbidden import and passes an allowed one.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';

const designRef = '(see docs/architecture.md, Layers)';
const vscodeOutsideEditor = { regex: '^vscode$', why: `Only src/vscode/** and src/extension.ts may import vscode ${designRef}.` };
/**
 * The layer rules compare the import as written, so it must be written plainly: a `..` after a
 * folder name, a `./..`, an absolute path or a climb out through `src/` would reach another layer
 * under a name the rules do not see; and a computed import() or require() cannot be checked at all.
 */
const plainSpecifier = { regex: '^/|^\\./\\.|(^|/)(?!\\.\\.(/|$))[^/]+/\\.\\.?(/|$)|^\\.\\.?/(.*/)?src(/|$)', why: 'Write relative imports normalised and inside src/, so the layer rules can read them.' };
/**
 * Node's modules that reach the machine (files, processes, network, the OS, the runtime): the host
 * core/ and common/ do not know. Their pure helpers (path, url, util, buffer, events...) stay allowed.
 */
const hostModules = ['child_process', 'cluster', 'dgram', 'dns', 'fs', 'http', 'http2', 'https', 'inspector', 'module', 'net', 'os',
	'process', 'readline', 'repl', 'tls', 'tty', 'v8', 'vm', 'wasi', 'worker_threads'];
for (const name of hostModules) {
	if (!builtinModules.includes(name)) {
		throw new Error(`eslint.config.mjs: ${name} is not one of Node's modules`);
	}
}
const hostModule = `^(node:)?(${hostModules.join('|')})(/|$)`;

/** A relative import of one of the top-level entries of src/ (folders or files): from a file in a folder of src/, or (`top`) from src/ itself. */
function into(entries, { top = false } = {}) {
	const up = top ? '\\./' : '(\\.\\./)+';
	return `^${up}(${entries.join('|')})(/|$)`;
}

/** Tests that always run and whose checks always finish (an un-awaited assert.rejects passes whatever happens). */
const honestTests = [
	{ selector: "CallExpression[callee.object.name=/^(describe|it|suite|test)$/][callee.property.name=/^(only|skip)$/]", message: 'No focused or skipped tests.' },
	{ selector: "UnaryExpression[operator='void'] > CallExpression[callee.object.name='assert'][callee.property.name=/^(rejects|doesNotReject)$/]", message: 'Await assert.rejects and assert.doesNotReject: un-awaited, the check cannot fail the test.' },
];

/**
 * Import rules for a set of files. Each restriction `{ regex, why }` is enforced on every form a
 * module can be named in: import, `import type` and export-from through no-restricted-imports;
 * import(), require() and `import('…')` types through no-restricted-syntax (which a later config
 * block replaces whole, so the honest-test selectors come along).
 */
function restrict(restrictions, selectors = []) {
	selectors = [...honestTests, ...selectors];
	for (const { regex, why } of restrictions) {
		const re = `/${regex.replaceAll('/', '\\/')}/`; // esquery's regex literal ends at the first plain slash
		selectors.push(
			{ selector: `ImportExpression[source.value=${re}]`, message: why },
			{ selector: `CallExpression[callee.name='require'][arguments.0.value=${re}]`, message: why },
			{ selector: `TSImportType[argument.literal.value=${re}]`, message: why },
		);
	}
	return {
		'no-restricted-imports': ['error', { patterns: restrictions.map(({ regex, why }) => ({ regex, message: why })) }],
		'no-restricted-syntax': ['error', ...selectors],
	};
}

/** A layer of src/: its own restrictions, plain and named imports, and no vscode unless it is the editor's layer. */
function layer(restrictions, { editor = false } = {}) {
	return restrict([...(editor ? [] : [vscodeOutsideEditor]), plainSpecifier, ...restrictions], [
		{ selector: "ImportExpression[source.type!='Literal']", message: 'A computed import() cannot be checked against the layers: name the module.' },
		{ selector: "CallExpression[callee.name='require'][arguments.0.type!='Literal']", message: 'A computed require() cannot be checked against the layers: name the module.' },
	]);
}

/** The top-level entries of src/ that nothing imports: the two composition roots, and the SDK shims esbuild swaps in. */
const roots = ['extension', 'cli', 'shims'];
const noRoots = { regex: into(roots), why: `Nothing imports the composition roots or the SDK shims ${designRef}.` };
const sdk = '^@modelcontextprotocol/';
/** core/ and common/ know no host: not through Node's process object either (settings and environment come through ports). */
const noProcess = { 'no-restricted-globals': ['error', { name: 'process', message: `core/ and common/ know no host: pass what is needed through a port ${designRef}.` }] };
const testsInPlainNode = `test/unit, security and reliability run in plain Node: no editor code ${designRef}.`;

export default tseslint.config(
	{ ignores: ['dist/**', 'out/**', '.cache/**', 'node_modules/**', 'test-results/**', 'bench-results/**', 'test/fixtures/**'] },
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		files: ['src/**/*.ts', 'test/**/*.ts'],
		ignores: ['test/e2e/**'],
		languageOptions: { parserOptions: { project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname } },
		rules: {
			'@typescript-eslint/no-floating-promises': 'error',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
			'no-restricted-syntax': ['error', ...honestTests],
		},
	},
	// The layer rules (design.md): a later block's no-restricted-imports replaces an earlier one's,
	// so each block lists its layer's restrictions in full.
	{ files: ['src/**/*.ts'], rules: layer([noRoots]) },
	{ files: ['src/vscode/**/*.ts'], rules: layer([noRoots], { editor: true }) },
	{ files: ['src/extension.ts'], rules: layer([{ regex: into(['cli', 'shims'], { top: true }), why: `extension.ts composes the editor host: it does not import cli.ts or the SDK shims ${designRef}.` }], { editor: true }) },
	{ files: ['src/cli.ts'], rules: layer([{ regex: into(['vscode', 'extension', 'shims'], { top: true }), why: `The headless host (cli.ts) runs without an editor ${designRef}.` }]) },
	{ files: ['src/common/**/*.ts'], rules: { ...layer([
		{ regex: '^\\.\\.(/|$)', why: `common/ is the base every layer uses: it imports nothing outside itself ${designRef}.` },
		{ regex: sdk, why: `common/ knows no protocol ${designRef}.` },
		{ regex: hostModule, why: `common/ is used by core/, so like core/ it knows no host: no files, processes or network ${designRef}.` }]), ...noProcess } },
	{ files: ['src/core/**/*.ts'], rules: { ...layer([
		{ regex: into(['mcp', 'client', 'picker', 'node', 'vscode', 'version', ...roots]), why: `core/ is pure domain and imports only common/: no protocol (mcp/, client/), no host (node/), no editor, no picker ${designRef}.` },
		{ regex: sdk, why: `core/ knows no protocol: no MCP SDK ${designRef}.` },
		{ regex: hostModule, why: `core/ knows no host: files, processes and network come through its ports ${designRef}.` }]), ...noProcess } },
	{ files: ['src/mcp/**/*.ts'], rules: layer([
		{ regex: into(['picker', 'client', 'node', 'vscode', ...roots]), why: `mcp/ is the server side and runs headless over the registry: no editor, no picker, no client, no host adapters ${designRef}.` },
		{ regex: '^@modelcontextprotocol/client(/|$)', why: `mcp/ is the server side; the one MCP client library is src/client ${designRef}.` }]) },
	{ files: ['src/client/**/*.ts'], rules: layer([
		{ regex: into(['core', 'picker', 'node', 'vscode', ...roots]), why: `client/ is the MCP client library the picker and the bridge share: no providers (core/), no picker, no host adapters, no editor ${designRef}.` },
		{ regex: '^(\\.\\./)+mcp/(?!lockFile$|http/authorization$)', why: `client/ shares only the lock file and the token header with the server side (mcp/lockFile, mcp/http/authorization) ${designRef}.` },
		{ regex: '^@modelcontextprotocol/(server|node)(/|$)', why: `client/ is an MCP client: it serves nothing ${designRef}.` }]) },
	{ files: ['src/picker/**/*.ts'], rules: layer([
		{ regex: into(['core', 'node', 'vscode', ...roots]), why: `The picker reads through MCP (client/), never the providers of core/, and knows no host or editor ${designRef}.` },
		{ regex: '^@modelcontextprotocol/(server|node)(/|$)', why: `The picker is an MCP client: it reads through MCP and serves nothing ${designRef}.` }]) },
	{ files: ['src/node/**/*.ts'], rules: layer([{ regex: into(['vscode', ...roots]), why: `node/ holds Node code shared by both hosts: no editor ${designRef}.` }]) },
	{ files: ['test/unit/**/*.ts', 'test/security/**/*.ts', 'test/reliability/**/*.ts', 'test/helpers/**/*.ts', 'test/fakes/**/*.ts'], rules: restrict([
		{ regex: '^vscode$', why: testsInPlainNode },
		{ regex: '(^|/)src/(vscode|extension)(/|$)', why: testsInPlainNode }]) },
	// A promise handed where nothing awaits it (an async callback to forEach, setTimeout, an event)
	// lets a failing check in it pass the test.
	{ files: ['test/**/*.ts'], rules: { '@typescript-eslint/no-misused-promises': 'error' } },
	{
		files: ['scripts/**/*.mjs', 'esbuild.mjs'],
		languageOptions: { globals: { ...globals.node } },
	},
	// The tooling (scripts/, test/e2e/) is held to the same type-aware rules as src/.
	{
		files: ['scripts/**/*.ts', 'scripts/bootstrap/*.mjs', 'test/e2e/**/*.ts'],
		languageOptions: { parserOptions: { project: './tsconfig.tooling.json', tsconfigRootDir: import.meta.dirname } },
		rules: {
			'@typescript-eslint/no-floating-promises': 'error',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
		},
	},
);
