// Lint: typescript-eslint's recommended rules, floating promises caught, and the layer rules of
// shared/design.md: only src/vscode/** and src/extension.ts import 'vscode'; common/ knows no
// other layer; core/ knows no protocol (SDK, mcp/), no host (node/) and no editor; the picker
// reads through MCP, never the providers of core/; mcp/ and node/ run headless.
// test/unit/lint/layers.test.ts proves each rule fails a forbidden import.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const vscodePath = { name: 'vscode', message: 'Only src/vscode/** and src/extension.ts may import vscode (see design.md layers).' };

/** no-restricted-imports for one layer: vscode, plus the top-level src/ folders (and packages) it must not reach. */
function layer(why, folders, packages = []) {
	const patterns = [];
	if (folders.length > 0) {
		patterns.push({ regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`, message: why });
	}
	if (packages.length > 0) {
		patterns.push({ regex: `^(${packages.join('|')})`, message: why });
	}
	return { 'no-restricted-imports': ['error', { paths: [vscodePath], patterns }] };
}

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
			'no-restricted-syntax': ['error',
				{ selector: "CallExpression[callee.object.name=/^(describe|it|suite|test)$/][callee.property.name=/^(only|skip)$/]", message: 'No focused or skipped tests.' }],
		},
	},
	{ files: ['src/**/*.ts'], ignores: ['src/vscode/**', 'src/extension.ts'], rules: layer('', []) },
	{ files: ['src/common/**/*.ts'], rules: layer('common/ is the base every layer uses: it imports no other layer (design.md).', ['core', 'mcp', 'picker', 'node', 'vscode', 'cli', 'extension'], ['@modelcontextprotocol/']) },
	{ files: ['src/core/**/*.ts'], rules: layer('core/ is pure domain: no protocol (SDK, mcp/), no host (node/), no editor, no picker (design.md).', ['mcp', 'picker', 'node', 'vscode', 'cli', 'extension'], ['@modelcontextprotocol/']) },
	{ files: ['src/mcp/**/*.ts'], rules: layer('mcp/ runs headless over the registry: no editor, no picker, no host adapters (design.md).', ['picker', 'node', 'vscode', 'cli', 'extension']) },
	{ files: ['src/picker/**/*.ts'], rules: layer('The picker reads through MCP, never the providers of core/ (design.md).', ['core', 'node', 'vscode', 'cli', 'extension']) },
	{ files: ['src/node/**/*.ts'], rules: layer('node/ holds Node adapters shared by both hosts: no editor (design.md).', ['vscode', 'cli', 'extension']) },
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
