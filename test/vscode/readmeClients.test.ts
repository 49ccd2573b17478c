import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { buildClientConfig, ClientKind } from '../../src/vscode/clientConfigs';

/** The repository's README, next to out/test/vscode/ once compiled. */
const README = readFileSync(path.join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
/** The README's placeholders, as Connect a Client... would fill them on Linux. */
const PLACEHOLDERS = { cliPath: 'EXT/dist/cli.js', workspaceFolder: 'WORKSPACE', platform: 'linux' as const };

/** The client command lines of the README's "Connect your assistant" section, by client name. */
function readmeCommands(): Map<string, string> {
	const section = README.slice(README.indexOf('## Connect your assistant'), README.indexOf('\n## ', README.indexOf('## Connect your assistant') + 3));
	const commands = new Map<string, string>();
	for (const match of section.matchAll(/^- \*\*([^*]+)\*\*: `([^`]+)`$/gm)) {
		commands.set(match[1], match[2]);
	}
	return commands;
}

describe('README: the client commands are the ones Connect a Client... writes (and the real-clients suite runs)', () => {
	const kinds: [string, ClientKind][] = [['Claude Code', 'claudeCode'], ['Codex CLI', 'codex'], ['Gemini CLI', 'gemini'], ['GitHub Copilot CLI', 'copilotCli']];

	it('lists a bridge command for each client the real-clients suite runs', () => {
		assert.deepEqual([...readmeCommands().keys()].sort(), kinds.map(([name]) => name).sort());
	});

	for (const [name, kind] of kinds) {
		it(`${name}: its README line is a line of the generated configuration`, () => {
			const line = readmeCommands().get(name);
			assert.ok(line, `the README names ${name}`);
			const generated = buildClientConfig(kind, PLACEHOLDERS).copy.split('\n');
			assert.ok(generated.includes(line), `${line}\nnot among:\n${generated.join('\n')}`);
		});
	}

	it('Cursor and Claude Desktop: the README entry is the generated bridge entry', () => {
		const entry = /`(\{"mcpServers": .*\})`/.exec(README)?.[1];
		assert.ok(entry, 'the README shows the mcpServers entry');
		const generated = JSON.parse(buildClientConfig('claudeDesktop', PLACEHOLDERS).copy.replace(/^\s*\/\/.*$/gm, '')) as unknown;
		assert.deepEqual(JSON.parse(entry), generated);
	});
});
