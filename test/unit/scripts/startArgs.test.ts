import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';

const root = path.join(__dirname, '../../../..');

/** `npm start`'s script with these arguments, as npm runs it: its exit code and stderr. */
function start(args: string[]): Promise<{ code: number | null; stderr: string }> {
	return new Promise(resolve => {
		const child = spawn(process.execPath, ['--import', './scripts/bootstrap/registerTypeScript.mjs', 'scripts/run/start.ts', ...args], {
			cwd: root, env: { ...process.env, INIT_CWD: root }, stdio: ['ignore', 'ignore', 'pipe'],
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
			const result = await start([...args]);
			assert.equal(result.code, 2, result.stderr);
			assert.equal(result.stderr, `${message}\nusage: npm start [FOLDER] [-- --port N]\n`);
		});
	}
});
