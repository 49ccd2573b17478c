import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';

const root = path.join(__dirname, '../../../..');

/** A script of the README's commands (`scripts/run/<name>.ts`), as npm runs it: its exit code and stderr. */
function script(name: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stderr: string }> {
	return new Promise(resolve => {
		const child = spawn(process.execPath, ['--import', './scripts/bootstrap/registerTypeScript.mjs', `scripts/run/${name}.ts`, ...args], {
			cwd: root, env: { ...process.env, INIT_CWD: root, ...env }, stdio: ['ignore', 'ignore', 'pipe'],
		});
		let stderr = '';
		child.stderr.on('data', d => (stderr += d));
		child.on('close', code => resolve({ code, stderr }));
	});
}

// The README's "Run it" command: arguments it cannot use are refused before anything is
// provisioned or started, in a line a user can act on.
describe('scripts: npm start with arguments it cannot use', function () {
	this.timeout(30_000);
	for (const [args, message] of [
		[['/definitely/missing'], '[start] /definitely/missing is not a folder'],
		[[path.join(root, 'package.json')], `[start] ${path.join(root, 'package.json')} is not a folder`],
		[['--port', 'abc'], '[start] --port needs a number between 1 and 65535'],
		[['.', 'extra'], '[start] unexpected argument extra'],
	] as const) {
		it(`exits 2 with one line and the usage, no stack trace: ${args.join(' ')}`, async () => {
			const result = await script('start', [...args]);
			assert.equal(result.code, 2, result.stderr);
			assert.equal(result.stderr, `${message}\nusage: npm start [FOLDER] [-- --port N]\n`);
		});
	}
});

describe('scripts: npm test with a part it does not have', function () {
	this.timeout(30_000);
	it('exits 2 naming the parts instead of running nothing and passing', async () => {
		// Only a misspelt part: were it run anyway, a real part here would run this suite again.
		const result = await script('testAll', [], { TEST_PARTS: 'unti' });
		assert.equal(result.code, 2, result.stderr);
		assert.equal(result.stderr, 'TEST_PARTS names no part called unti; the parts are lint, unit, security, reliability, vscode, e2e, outside\n');
	});
});
