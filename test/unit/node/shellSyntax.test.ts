import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { shellFor } from '../../../src/node/shellSyntax';

describe('shell syntax of the commands users paste', () => {
	const posix = shellFor('linux');
	const powershell = shellFor('win32');

	it('POSIX: a sh reads every quoted word back as it was, one word each', () => {
		const words = ['plain/path.js', '/home/me/my project', "it's", 'a"b', '$HOME', '`id`', 'tab\there', 'line\nbreak', '*', '', 'Authorization: Bearer abc'];
		const line = ['printf', '%s\\0', ...words].map(posix.quote).join(' ');
		const out = execFileSync('sh', ['-c', line], { encoding: 'utf8' });
		assert.deepEqual(out.split('\0').slice(0, -1), words);
	});

	it('POSIX: sets a variable with export', () => {
		assert.equal(posix.setVariable('TOKEN', 'ab12'), 'export TOKEN=ab12');
		assert.equal(posix.language, 'shellscript');
	});

	it('Windows: PowerShell words, double-quoted where cmd.exe reads them the same, literal single quotes otherwise', () => {
		assert.equal(powershell.quote('C:\\Users\\me\\.vscode\\extensions\\x-0.1.0\\dist\\cli.js'), 'C:\\Users\\me\\.vscode\\extensions\\x-0.1.0\\dist\\cli.js');
		assert.equal(powershell.quote('C:\\Users\\Jane Doe\\project'), '"C:\\Users\\Jane Doe\\project"');
		assert.equal(powershell.quote('Authorization: Bearer abc'), '"Authorization: Bearer abc"');
		assert.equal(powershell.quote('C:\\costs$\\it\'s'), `'C:\\costs$\\it''s'`);
		assert.equal(powershell.quote('100%'), `'100%'`);
		assert.equal(powershell.setVariable('TOKEN', 'ab12'), '$env:TOKEN = "ab12"');
		assert.equal(powershell.language, 'powershell');
	});
});
