import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { countTokens as anthropicCount } from '@anthropic-ai/tokenizer';
import { Selection } from '../../../src/picker/selection';
import { BYTES_PER_TOKEN, COUNT_LIMIT_CHARS, countTokens, countVocabularyTokens, estimateTokensFromSize } from '../../../src/picker/tokenCount';

const repoRoot = path.join(__dirname, '../../../..');
const corpus = ['README.md', 'CHANGELOG.md', 'src/core/registry.ts', 'src/picker/contextBundle.ts', 'src/mcp/http/httpHost.ts', 'esbuild.mjs']
	.map(rel => readFileSync(path.join(repoRoot, rel), 'utf8'));

describe('picker: token counts', () => {
	it('split text as Anthropic\'s own Claude tokenizer does (within 0.1% over this project\'s files)', () => {
		let ours = 0;
		let theirs = 0;
		for (const text of corpus) {
			// @anthropic-ai/tokenizer NFKC-normalises its input first (µ to μ, … to ...): compare the
			// vocabularies on the same text, or the README's own wording would decide the test.
			ours += countVocabularyTokens(text.normalize('NFKC'));
			theirs += anthropicCount(text);
		}
		assert.ok(theirs > 10_000, `a corpus worth measuring: ${theirs} tokens`);
		assert.ok(Math.abs(ours - theirs) / theirs < 0.001, `ours ${ours}, Anthropic's ${theirs}`);
		assert.equal(countVocabularyTokens('hello world'), anthropicCount('hello world'));
	});

	it('scale the vocabulary count for Claude 3 and later, and count nothing in empty text', () => {
		const text = 'export function activate(context: vscode.ExtensionContext): void {}\n';
		assert.equal(countTokens(text), Math.ceil(countVocabularyTokens(text) * 1.1));
		assert.equal(countTokens(''), 0);
	});

	it('count a long text on its first part and scale by length, so a huge read cannot stall the editor', () => {
		const line = 'const value = computeSomething(input, options); // a line of code\n';
		const long = line.repeat(Math.ceil((COUNT_LIMIT_CHARS * 3) / line.length));
		const exact = countVocabularyTokens(long);
		const counted = countTokens(long);
		assert.ok(Math.abs(counted - exact * 1.1) / (exact * 1.1) < 0.01, `scaled ${counted} vs exact ${exact * 1.1}`);
	});

	it('are far from characters over four for code, which the size estimate now follows', () => {
		const code = corpus[2];
		const counted = countTokens(code);
		const bytes = Buffer.byteLength(code);
		assert.ok(counted > Math.ceil(code.length / 4) * 1.15, `counted ${counted}, chars/4 ${Math.ceil(code.length / 4)}`);
		const estimate = estimateTokensFromSize(bytes);
		assert.ok(Math.abs(estimate - counted) / counted < 0.2, `estimate ${estimate} (bytes / ${BYTES_PER_TOKEN}) vs counted ${counted}`);
		assert.equal(estimateTokensFromSize(undefined), 0);
		assert.equal(estimateTokensFromSize(0), 0);
	});

	it('load the tokenizer on the first count, not when the picker is loaded', () => {
		const out = path.join(repoRoot, 'out/src/picker');
		const script = `
			require(${JSON.stringify(path.join(out, 'pickerService.js'))});
			const counter = require(${JSON.stringify(path.join(out, 'tokenCount.js'))});
			const loaded = () => Object.keys(require.cache).some(f => f.includes('claudeTokenizer') || f.includes('ai-tokenizer'));
			const before = loaded();
			counter.countTokens('hello');
			process.stdout.write(JSON.stringify({ before, after: loaded() }));`;
		assert.deepEqual(JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })), { before: false, after: true });
	});

	it('keep the tokenizer out of the extension and CLI bundles (a separate file, required on demand)', () => {
		const main = readFileSync(path.join(repoRoot, 'dist/main.js'), 'utf8');
		assert.match(main, /require\("\.\/claudeTokenizer\.js"\)/);
		for (const bundle of ['dist/main.js', 'dist/cli.js']) {
			assert.ok(!readFileSync(path.join(repoRoot, bundle), 'utf8').includes('ksdkProj'), `${bundle} holds no vocabulary`);
		}
		assert.ok(readFileSync(path.join(repoRoot, 'dist/claudeTokenizer.js'), 'utf8').includes('ksdkProj'));
	});
});

describe('picker: selection token total', () => {
	it('uses counted tokens where known and the size estimate elsewhere', () => {
		const selection = new Selection();
		selection.update([
			{ serverId: 's', resource: { uri: 'file:///a', name: 'a', size: 300 } },
			{ serverId: 's', resource: { uri: 'file:///b', name: 'b', size: 30 } },
		]);
		assert.equal(selection.estimatedTokens, estimateTokensFromSize(300) + estimateTokensFromSize(30));
		assert.equal(selection.tokensCounted, false);
		let changes = 0;
		selection.onDidChange(() => changes++);
		assert.equal(selection.setTokens('s', 'file:///a', 7), true);
		assert.equal(selection.setTokens('s', 'file:///b', 5), true);
		assert.equal(selection.estimatedTokens, 12);
		assert.equal(selection.tokensCounted, true);
		assert.equal(changes, 2);
		assert.equal(selection.setTokens('s', 'file:///gone', 1), false, 'not selected');
		selection.dispose();
	});
});
