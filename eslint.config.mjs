// Lint: typescript-eslint's recommended rules, floating promises caught, and the layer rule
// of shared/design.md: only src/vscode/** and src/extension.ts may import 'vscode'.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const noVscode = {
	'no-restricted-imports': ['error', {
		paths: [{ name: 'vscode', message: 'Only src/vscode/** and src/extension.ts may import vscode (see design.md layers).' }],
	}],
};

export default tseslint.config(
	{ ignores: ['dist/**', 'out/**', '.cache/**', 'node_modules/**', 'test-results/**', 'bench-results/**', 'test/fixtures/**'] },
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		files: ['src/**/*.ts', 'test/**/*.ts'],
		languageOptions: { parserOptions: { project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname } },
		rules: {
			'@typescript-eslint/no-floating-promises': 'error',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
			'no-restricted-syntax': ['error',
				{ selector: "CallExpression[callee.object.name=/^(describe|it|suite|test)$/][callee.property.name=/^(only|skip)$/]", message: 'No focused or skipped tests.' }],
		},
	},
	{ files: ['src/**/*.ts'], ignores: ['src/vscode/**', 'src/extension.ts'], rules: noVscode },
	{
		files: ['scripts/**/*.mjs', 'esbuild.mjs'],
		languageOptions: { globals: { ...globals.node } },
	},
);
