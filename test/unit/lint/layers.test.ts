import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.join(__dirname, '../../../..');

/**
 * Each layer rule of shared/design.md, proven by linting one forbidden import as if it stood in
 * a real file of that layer (and one allowed import, so a rule that forbids everything fails).
 */
const cases: { file: string; forbidden: string[]; allowed: string }[] = [
	{ file: 'src/common/event.ts', forbidden: ['../core/errors', '@modelcontextprotocol/sdk/types.js', 'vscode'], allowed: './lifecycle' },
	{ file: 'src/core/registry.ts', forbidden: ['../mcp/session', '../node/nodeFileSystem', '../picker/filter', '@modelcontextprotocol/sdk/types.js', 'vscode'], allowed: '../common/lifecycle' },
	{ file: 'src/core/files/fileFilter.ts', forbidden: ['../../mcp/errors', '../../vscode/vsCodeGit'], allowed: '../ports' },
	{ file: 'src/mcp/session.ts', forbidden: ['../picker/filter', '../node/bridge', '../vscode/commands', 'vscode'], allowed: '../core/registry' },
	{ file: 'src/picker/filter.ts', forbidden: ['../core/registry', '../core/files/filesProvider', '../node/headless', 'vscode'], allowed: '../mcp/lockFile' },
	{ file: 'src/node/headless.ts', forbidden: ['../vscode/vsCodeGit', 'vscode'], allowed: '../core/registry' },
];

describe('lint enforces the layers of design.md', function () {
	this.timeout(120_000);
	// With CI=true typescript-eslint infers a single run and parses files from disk, ignoring the
	// text given to lintText: turn that inference off so the forbidden import is what gets linted.
	const eslint = new ESLint({ cwd: ROOT, overrideConfig: { languageOptions: { parserOptions: { disallowAutomaticSingleRunInference: true } } } });

	async function importErrors(file: string, specifier: string): Promise<string[]> {
		const [result] = await eslint.lintText(`import '${specifier}';\n`, { filePath: path.join(ROOT, file) });
		const fatal = result.messages.filter(m => m.fatal).map(m => m.message);
		assert.deepEqual(fatal, [], `${file} parses`);
		return result.messages.filter(m => m.ruleId === 'no-restricted-imports').map(m => m.message);
	}

	for (const { file, forbidden, allowed } of cases) {
		it(`${path.dirname(file)}/: refuses ${forbidden.join(', ')}; allows ${allowed}`, async () => {
			for (const specifier of forbidden) {
				assert.equal((await importErrors(file, specifier)).length, 1, `${specifier} in ${file}`);
			}
			assert.deepEqual(await importErrors(file, allowed), [], `${allowed} in ${file}`);
		});
	}

	it('lets src/vscode/** import vscode', async () => {
		assert.deepEqual(await importErrors('src/vscode/commands.ts', 'vscode'), []);
	});
});
