import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint, Linter } from 'eslint';

const ROOT = path.join(__dirname, '../../../..');

// With CI=true typescript-eslint infers a single run and parses files from disk, ignoring the
// text given to lintText: turn that inference off so the text given is what gets linted.
const eslint = new ESLint({ cwd: ROOT, overrideConfig: { languageOptions: { parserOptions: { disallowAutomaticSingleRunInference: true } } } });

/** The project's lint messages for `text` as if it stood in `file` (relative to the repository root); the text must parse. */
export async function lintAs(file: string, text: string): Promise<Linter.LintMessage[]> {
	const [result] = await eslint.lintText(text, { filePath: path.join(ROOT, file) });
	assert.deepEqual(result.messages.filter(m => m.fatal).map(m => m.message), [], `${file} parses`);
	return result.messages;
}
