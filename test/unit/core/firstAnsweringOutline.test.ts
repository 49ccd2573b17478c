import * as assert from 'node:assert/strict';
import { FirstAnsweringOutline } from '../../../src/core/outline/firstAnsweringOutline';
import { FakeOutline, sym } from '../../fakes/fakeOutline';

/** In the editor: the language's outline provider first, the grammar only for a file none answers for. */
describe('the editor\'s outline first, then the grammar', () => {
	it('answers from the first source when it knows the file, from the second when it gives nothing, and no file stays no file', async () => {
		const editor = new FakeOutline();
		const grammar = new FakeOutline();
		const outline = new FirstAnsweringOutline(editor, grammar);
		editor.set(__filename, [sym('fromEditor', 'Function', 0, 1)]);
		grammar.set(__filename, [sym('fromGrammar', 'Function', 0, 1)]);
		assert.deepEqual((await outline.symbols(__filename))?.map(s => s.name), ['fromEditor']);
		assert.deepEqual(grammar.asked, [], 'the grammar is not asked when the editor answers');
		editor.set(__filename, []);
		assert.deepEqual((await outline.symbols(__filename))?.map(s => s.name), ['fromGrammar']);
		assert.equal(await outline.symbols(`${__filename}.gone`), undefined);
		assert.deepEqual(grammar.asked, [__filename], 'nor for a file that is not there');
	});

	it('takes the open files and the change events of the editor', () => {
		const editor = new FakeOutline();
		const outline = new FirstAnsweringOutline(editor, new FakeOutline());
		editor.setOpen(['/ws/a.ts']);
		const heard: string[] = [];
		outline.onDidChangeFile(p => heard.push(p));
		editor.edit('/ws/a.ts');
		assert.deepEqual(outline.openFiles(), ['/ws/a.ts']);
		assert.deepEqual(heard, ['/ws/a.ts']);
	});
});
