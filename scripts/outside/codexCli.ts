// Codex CLI: added with `codex mcp add` (stdio command, or --url with the token in a variable):
// for HTTP and the bridge, the very lines "Connect a Client..." generates, the token in the
// variable its `export` line sets; driven with `codex exec`, its model provider pointed at the
// stand-in in config.toml.
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { conversationSteps, converse, productAddArgs, shellWords, toolSteps, type ClientContext, type ClientSetup } from './clientRun.js';
import { startOpenAiStandIn } from './openaiStandIn.js';

/** config.toml: the stand-in as the model provider; analytics, feedback, updates and online features off. */
function codexConfig(baseUrl: string): string {
	return [
		'model = "gpt-5-codex"',
		'model_provider = "outside-stand-in"',
		'check_for_update_on_startup = false',
		'',
		'[model_providers.outside-stand-in]',
		'name = "Outside checks stand-in"',
		`base_url = "${baseUrl}/v1"`,
		'wire_api = "responses"',
		'env_key = "OUTSIDE_STAND_IN_KEY"',
		'',
		'[analytics]',
		'enabled = false',
		'',
		'[feedback]',
		'enabled = false',
		'',
		'[otel]',
		'exporter = "none"',
		'',
		'[history]',
		'persistence = "none"',
		'',
		// Plugins sync from github.com, apps and plugin sharing talk to chatgpt.com: none is needed.
		'[features]',
		'apps = false',
		'plugins = false',
		'remote_plugin = false',
		'plugin_sharing = false',
		'',
	].join('\n');
}

function conversation(ctx: ClientContext, transport: string, addArgs: string[], variables: Record<string, string> = {}): Promise<void> {
	const codex = [process.execPath, ctx.clients.codex];
	return converse(ctx, {
		tool: `codex ${transport}`,
		// Codex CLI also has a tool for resources/templates/list.
		// Then our tools, in the namespace Codex gives the server (mcp__workspace_resources).
		steps: [...conversationSteps(ctx.fixture), { label: 'lists resource templates', kind: 'templates', expect: ['git://{repo}/show/{ref}', 'file:///{+path}'] }, ...toolSteps(ctx.fixture)],
		startStandIn: script => startOpenAiStandIn(script, ctx.serverName),
		env: () => ({ OUTSIDE_STAND_IN_KEY: 'sk-outside-checks-dummy', ...variables }),
		prepare: (env, standIn) => {
			const home = env.HOME ?? '';
			mkdirSync(path.join(home, '.codex'), { recursive: true });
			writeFileSync(path.join(home, '.codex', 'config.toml'), codexConfig(standIn.url));
		},
		add: [...codex, 'mcp', 'add', ...addArgs],
		addLabel: `codex mcp add ${addArgs.join(' ').split(' -- ')[0]}`,
		run: [...codex, 'exec', '--skip-git-repo-check', 'List the workspace resources and read them, then use the workspace tools.'],
	});
}

/** The variables the configuration's `export NAME=value` lines set, as a shell would. */
function exportedVariables(lines: readonly string[]): Record<string, string> {
	const variables: Record<string, string> = {};
	for (const line of lines) {
		const [word, assignment, ...rest] = shellWords(line);
		const equals = assignment?.indexOf('=') ?? -1;
		if (word === 'export' && equals > 0 && rest.length === 0) {
			variables[assignment.slice(0, equals)] = assignment.slice(equals + 1);
		}
	}
	return variables;
}

export async function checkCodex(ctx: ClientContext, setup: ClientSetup): Promise<void> {
	const lines = setup.configLines.codex;
	await conversation(ctx, 'stdio', [ctx.serverName, '--', ...setup.stdio]);
	await conversation(ctx, 'http', productAddArgs('codex', lines, 'HTTP', line => line.includes(' --url ')), exportedVariables(lines));
	await conversation(ctx, 'bridge', productAddArgs('codex', lines, 'the bridge', line => line.includes(' bridge ')));
}
