import * as assert from 'node:assert/strict';
import { bridgeCommand, buildClientConfig, CLIENT_KINDS, ClientConfigContext, CODEX_TOKEN_VARIABLE, DEFAULT_SERVER_NAME } from '../../src/vscode/clientConfigs';

const running: ClientConfigContext = {
	url: 'http://127.0.0.1:43123/mcp',
	token: 'ab'.repeat(32),
	cliPath: '/home/me/.vscode/extensions/mcp-workspace-resources-0.1.0/dist/cli.js',
	workspaceFolder: '/home/me/my project',
};
const stopped: ClientConfigContext = { ...running, url: undefined, token: undefined };
const bridge = { command: 'node', args: [running.cliPath, 'bridge', '--workspace', '/home/me/my project'] };
const header = { Authorization: `Bearer ${'ab'.repeat(32)}` };

describe('client configurations', () => {
	it('runs the bridge with the extension CLI and the folder', () => {
		assert.deepEqual(bridgeCommand(running), bridge);
	});

	it('Claude Desktop: stdio through the bridge, valid JSON on the clipboard, notes only in the document', () => {
		const config = buildClientConfig('claudeDesktop', running);
		assert.deepEqual(JSON.parse(config.copy), { mcpServers: { 'workspace-resources': bridge } });
		assert.ok(!config.copy.includes(running.token!), 'no token: it would be stale after a restart');
		assert.ok(config.document.startsWith('//') && config.document.endsWith(config.copy));
		assert.equal(config.language, 'jsonc');
	});

	it('Claude Code: the bridge first, then HTTP with the bearer header, shell-quoted', () => {
		const config = buildClientConfig('claudeCode', running);
		const commands = config.copy.split('\n').filter(l => l.startsWith('claude '));
		assert.deepEqual(commands, [
			`claude mcp add --scope user workspace-resources -- node ${running.cliPath} bridge --workspace '/home/me/my project'`,
			`claude mcp add --transport http workspace-resources http://127.0.0.1:43123/mcp --header 'Authorization: Bearer ${'ab'.repeat(32)}'`,
		]);
		assert.equal(config.copy, config.document);
		assert.equal(config.language, 'shellscript');
		const withoutServer = buildClientConfig('claudeCode', stopped).copy.split('\n').filter(l => l.startsWith('claude '));
		assert.equal(withoutServer.length, 1, 'no HTTP line without a running server');
	});

	it('Codex CLI: the bridge first, then HTTP with the token in the variable it names', () => {
		const config = buildClientConfig('codex', running);
		const commands = config.copy.split('\n').filter(l => !l.startsWith('#') && l !== '');
		assert.deepEqual(commands, [
			`codex mcp add workspace-resources -- node ${running.cliPath} bridge --workspace '/home/me/my project'`,
			`codex mcp add workspace-resources --url http://127.0.0.1:43123/mcp --bearer-token-env-var ${CODEX_TOKEN_VARIABLE}`,
			`export ${CODEX_TOKEN_VARIABLE}=${'ab'.repeat(32)}`,
		]);
		assert.equal(config.language, 'shellscript');
		assert.match(config.document, /read_mcp_resource/);
		const withoutServer = buildClientConfig('codex', stopped).copy.split('\n').filter(l => l.startsWith('codex ') || l.startsWith('export '));
		assert.equal(withoutServer.length, 1, 'no HTTP lines without a running server');
	});

	it('Gemini CLI: the bridge first, then HTTP with the bearer header, and how to trust the folder', () => {
		const config = buildClientConfig('gemini', running);
		const commands = config.copy.split('\n').filter(l => l.startsWith('gemini '));
		assert.deepEqual(commands, [
			`gemini mcp add --scope user workspace-resources node ${running.cliPath} bridge --workspace '/home/me/my project'`,
			`gemini mcp add --scope user --transport http workspace-resources http://127.0.0.1:43123/mcp --header 'Authorization: Bearer ${'ab'.repeat(32)}'`,
		]);
		assert.match(config.document, /does not trust/);
		assert.match(config.document, /@workspace-resources:<uri>/);
		assert.equal(buildClientConfig('gemini', stopped).copy.split('\n').filter(l => l.startsWith('gemini ')).length, 1);
	});

	it('GitHub Copilot CLI: the bridge first, then HTTP with the bearer header, and that its model uses the tools', () => {
		const config = buildClientConfig('copilotCli', running);
		const commands = config.copy.split('\n').filter(l => l.startsWith('copilot '));
		assert.deepEqual(commands, [
			`copilot mcp add workspace-resources -- node ${running.cliPath} bridge --workspace '/home/me/my project'`,
			`copilot mcp add --transport http workspace-resources http://127.0.0.1:43123/mcp --header 'Authorization: Bearer ${'ab'.repeat(32)}'`,
		]);
		assert.match(config.document, /cannot read MCP resources: its model reaches the workspace through this server's/);
		assert.equal(buildClientConfig('copilotCli', stopped).copy.split('\n').filter(l => l.startsWith('copilot ')).length, 1);
	});

	it('Cursor: the bridge and an HTTP entry with url and headers', () => {
		assert.deepEqual(JSON.parse(buildClientConfig('cursor', running).copy), {
			mcpServers: { 'workspace-resources': bridge, 'workspace-resources-http': { url: running.url, headers: header } },
		});
		assert.deepEqual(JSON.parse(buildClientConfig('cursor', stopped).copy), { mcpServers: { 'workspace-resources': bridge } });
	});

	it('VS Code mcp.json: an http server with the token, or the bridge when the server is not running', () => {
		const config = buildClientConfig('vscode', running);
		assert.deepEqual(JSON.parse(config.copy), { servers: { 'workspace-resources': { type: 'http', url: running.url, headers: header } } });
		assert.match(config.document, /already finds the server/);
		assert.deepEqual(JSON.parse(buildClientConfig('vscode', stopped).copy), { servers: { 'workspace-resources': { type: 'stdio', ...bridge } } });
	});

	it('says a token lasts until the window reloads or Rotate Token, not until a restart (which keeps it)', () => {
		for (const kind of CLIENT_KINDS) {
			const config = buildClientConfig(kind, running);
			if (config.copy.includes(running.token!)) {
				assert.match(config.document, /until the window reloads or you run "MCP Resources: Rotate Token"/, kind);
				assert.doesNotMatch(config.document, /restart/, `${kind}: a restart keeps the address and the token`);
			}
		}
	});

	it('names the server as asked and warns when the extension host is remote', () => {
		for (const kind of CLIENT_KINDS) {
			const config = buildClientConfig(kind, { ...running, serverName: 'my-repo', remoteName: 'ssh-remote+box' });
			assert.ok(config.copy.includes('my-repo'), kind);
			assert.match(config.document, /runs on "ssh-remote\+box"/, kind);
			assert.ok(config.label && config.detail, kind);
		}
	});

	it('uses a default name no popular client reserves', () => {
		// Claude Code 2.1.330 refuses these with "this name is reserved" (and drops them from --mcp-config).
		const reserved = ['cowork', 'workspace', 'session-info', 'mcp-registry', 'plugins', 'scheduled-tasks', 'dispatch', 'ide'];
		assert.ok(!reserved.includes(DEFAULT_SERVER_NAME), DEFAULT_SERVER_NAME);
		for (const kind of CLIENT_KINDS) {
			assert.ok(buildClientConfig(kind, running).copy.includes(DEFAULT_SERVER_NAME), kind);
		}
	});

	it('quotes single quotes in folder names for the shell', () => {
		const config = buildClientConfig('claudeCode', { ...stopped, workspaceFolder: "/tmp/it's here" });
		assert.ok(config.copy.includes(`--workspace '/tmp/it'\\''s here'`), config.copy);
	});

	it('Connect a Client... writes the commands for the extension host\'s platform', () => {
		const ctx = { url: 'http://127.0.0.1:4/mcp', token: 'ab12', cliPath: 'C:\\Users\\Jane Doe\\.vscode\\extensions\\x\\dist\\cli.js', workspaceFolder: 'C:\\src\\app', platform: 'win32' as const };
		const codex = buildClientConfig('codex', ctx);
		assert.equal(codex.language, 'powershell');
		assert.ok(codex.copy.includes('codex mcp add workspace-resources -- node "C:\\Users\\Jane Doe\\.vscode\\extensions\\x\\dist\\cli.js" bridge --workspace C:\\src\\app\n'), codex.copy);
		assert.ok(codex.copy.includes('$env:MCP_WORKSPACE_RESOURCES_TOKEN = "ab12"\n'), codex.copy);
		assert.ok(buildClientConfig('claudeCode', ctx).copy.includes(`--header "Authorization: Bearer ab12"`));
		assert.equal(buildClientConfig('claudeCode', { ...ctx, platform: 'darwin' }).language, 'shellscript');
	});
});
