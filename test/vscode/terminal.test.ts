import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TestClient, waitFor } from './helpers';

describe('terminal output (terminal://)', () => {
	let client: TestClient;
	let terminal: vscode.Terminal | undefined;
	before(async () => {
		client = await TestClient.connect();
	});
	after(async () => {
		terminal?.dispose();
		await client?.close();
	});

	it('a command run in a terminal with shell integration appears as a resource, its token redacted', async function () {
		this.timeout(120_000);
		terminal = vscode.window.createTerminal({ name: 'mcp-check', shellPath: '/bin/bash' });
		terminal.show();
		const shell = await waitFor(() => terminal!.shellIntegration, 'shell integration in the new terminal', 60_000);
		const since = client.mark();
		const token = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
		// The command waits a second before printing: VS Code delivers an execution's output only from
		// when the extension host hears that it started, and in a remote host (code-server) a
		// command that prints at once can finish before that; its output is then empty (README).
		shell.executeCommand(`sleep 1; echo "hello from the terminal $((40 + 2)) ${token}"`);
		await since.listChanged(30_000);
		const uri = await waitFor(async () => [...await client.listedUris()].find(u => /^terminal:\/\/[0-9]+\/last$/.test(u)), 'a terminal resource listed');
		let last = '';
		const text = await waitFor(async () => {
			last = await client.readText(uri);
			return /exit code 0/.test(last) && last.includes('hello from the terminal 42') ? last : undefined;
		}, 'the finished command with its output', 30_000).catch(err => {
			throw new Error(`${(err as Error).message}; last read: ${JSON.stringify(last)}`);
		});
		assert.match(text, /^\$ sleep 1; echo "hello from the terminal \$\(\(40 \+ 2\)\) \[REDACTED:github\]"\n/);
		assert.ok(!text.includes(token), text);
		const history = JSON.parse(await client.readText(uri.replace(/last$/, 'commands'))) as { terminal: string; commands: { exitCode?: number; cwd?: string }[] };
		assert.equal(history.terminal, 'mcp-check');
		assert.equal(history.commands.at(-1)?.exitCode, 0);
	});
});
