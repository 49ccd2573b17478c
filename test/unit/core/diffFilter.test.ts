import * as assert from 'node:assert/strict';
import { filterDiff, sectionPaths, unquote } from '../../../src/core/git/diffFilter';
import { MAX_ANSWER_BYTES } from '../../../src/core/answerBudget';
import { renderDiff } from '../../../src/core/git/gitAnswers';

const section = (a: string, b = a) => `diff --git a/${a} b/${b}\nindex 1..2 100644\n--- a/${a}\n+++ b/${b}\n@@ -1 +1 @@\n-old\n+new ${a}\n`;

describe('diff filter', () => {
	it('drops sections of refused paths and counts them', async () => {
		const text = section('src/a.ts') + section('.env') + section('keys/server.pem');
		const refused = new Set(['.env', 'keys/server.pem']);
		const result = await filterDiff(text, async p => !refused.has(p));
		assert.equal(result.text, section('src/a.ts'));
		assert.equal(result.hidden, 2);
	});

	it('checks both sides of a rename, binary files and quoted names', async () => {
		const rename = 'diff --git a/old name.txt b/.env\nsimilarity index 100%\nrename from old name.txt\nrename to .env\n';
		assert.deepEqual(sectionPaths(rename).sort(), ['.env', 'old name.txt']);
		const binary = 'diff --git a/img.png b/img.png\nindex 1..2\nBinary files a/img.png and b/img.png differ\n';
		assert.deepEqual(sectionPaths(binary), ['img.png']);
		const quoted = 'diff --git "a/caf\\303\\251 \\"x\\".txt" "b/caf\\303\\251 \\"x\\".txt"\n--- "a/caf\\303\\251 \\"x\\".txt"\n';
		assert.deepEqual(sectionPaths(quoted), ['café "x".txt']);
		assert.equal(unquote('"tab\\there"'), 'tab\there');
		assert.equal(unquote('"bad\\q"'), undefined);
	});

	it('reads paths without prefixes (diff.noprefix) as written', async () => {
		assert.deepEqual(sectionPaths('diff --git a/b.txt a/b.txt\n--- a/b.txt\n+++ a/b.txt\n'), ['a/b.txt']);
		assert.deepEqual(sectionPaths('diff --git src/x.ts src/x.ts\n--- src/x.ts\n+++ src/x.ts\n'), ['src/x.ts']);
	});

	it('hides git output that is not a unified diff (an external diff tool, colours), and says so', async () => {
		// What `git diff` prints through difftastic (a user's diff.external), and with color.ui=always:
		// the editor's git extension runs plain `git diff` under the user's config.
		const external = '.env --- Text\n1 SECRET=old                 1 SECRET=new\n\nsrc/a.ts --- TypeScript\n1 a = 1                      1 a = 2\n';
		const coloured = `\u001b[1mdiff --git a/.env b/.env\u001b[m\n\u001b[1m--- a/.env\u001b[m\n\u001b[1m+++ b/.env\u001b[m\n\u001b[32m+SECRET=new\u001b[m\n`;
		for (const text of [external, coloured, external + section('src/a.ts')]) {
			const result = await filterDiff(text, async p => p !== '.env');
			assert.ok(!result.text.includes('SECRET'), result.text);
			assert.equal(result.unreadable, true);
			const rendered = await renderDiff({ text, truncated: false }, '', { maxBytes: 100_000, maxBytesSetting: 'x', perFileTemplate: 'y' }, async () => true);
			assert.ok(!rendered.includes('SECRET'), rendered);
			assert.match(rendered, /not a plain unified diff/);
		}
	});

	it('hides a section whose paths cannot be read, keeps a commit header', async () => {
		const text = 'commit abc\n\n    msg\n\ndiff --git "a/x\\q" "b/x\\q"\nold mode 100644\n';
		const result = await filterDiff(text, async () => true);
		assert.equal(result.text, 'commit abc\n\n    msg\n\n');
		assert.equal(result.hidden, 1);
	});

	it('cuts a diff at what one answer holds as JSON text, whatever the size setting allows, and says so', async () => {
		const lines = Array.from({ length: 200_000 }, (_, i) => `+"quoted\\${i}"\t`).join('\n');
		const text = `diff --git a/big.json b/big.json\n--- a/big.json\n+++ b/big.json\n@@ -0,0 +1,200000 @@\n${lines}\n`;
		const rendered = await renderDiff({ text, truncated: false }, '', { maxBytes: 50_000_000, maxBytesSetting: '--max-file-size', perFileTemplate: 'git://r/diff/{path}' }, async () => true);
		assert.ok(Buffer.byteLength(JSON.stringify(rendered)) <= MAX_ANSWER_BYTES, `${Buffer.byteLength(JSON.stringify(rendered))} bytes as JSON`);
		assert.match(rendered, /# diff cut at .* as JSON text, the most one answer holds whatever --max-file-size says; read git:\/\/r\/diff\/\{path\} per file\n$/);
		assert.ok(text.startsWith(rendered.slice(0, rendered.indexOf('\n# diff cut'))), 'the part kept is the diff as it was');
	});
});
