// Starts the headless host (`dist/cli.js serve --http`) on a folder for tests and benches, with
// a private lock-file home so it never shows up in the user's ~/.mcp-workspace-resources.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import process from 'node:process';
import * as readline from 'node:readline';
import { repoRoot } from './vscodeEnv.mjs';

/** Resolves with the server's url and token (its first stdout line) and a stop(). */
export async function startHeadless(root) {
	const home = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwr-headless-'));
	const child = spawn(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), 'serve', '--root', root, '--http'], {
		env: { ...process.env, MCP_WORKSPACE_RESOURCES_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'],
	});
	child.stderr.resume();
	const first = await new Promise((resolve, reject) => {
		child.once('exit', code => reject(new Error(`the headless server exited (${code})`)));
		readline.createInterface({ input: child.stdout }).once('line', resolve);
	});
	const { url, token } = JSON.parse(first);
	return {
		url, token,
		stop: () => new Promise(resolve => {
			child.once('exit', () => { fs.rmSync(home, { recursive: true, force: true }); resolve(); });
			child.kill('SIGTERM');
		}),
	};
}
