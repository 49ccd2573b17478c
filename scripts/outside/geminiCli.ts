// Gemini CLI: added with `gemini mcp add --scope user` (stdio command, or --transport http with
// the Authorization header): for HTTP and the bridge, the very lines "Connect a Client..."
// generates; driven with `gemini -p`, its API pointed at the stand-in.
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { conversationSteps, converse, productAddArgs, toolSteps, type ClientContext, type ClientSetup } from './clientRun.js';
import { startGeminiStandIn } from './geminiStandIn.js';

/**
 * A user policy letting the server's read-only tools run without asking, as a person would allow
 * them for headless runs: Gemini CLI asks before any MCP tool by default, and a -p run, which
 * cannot ask, leaves such tools out of what the model is offered. It allows them by the
 * `readOnlyHint` every tool of ours carries.
 */
function readOnlyToolsPolicy(serverName: string): string {
	return ['[[rule]]', 'toolName = "*"', `mcpName = "${serverName}"`, 'toolAnnotations = { readOnlyHint = true }', 'decision = "allow"', 'priority = 100', ''].join('\n');
}

/** settings.json: API-key auth (so the stand-in URL is used), telemetry, statistics and updates off. */
const SETTINGS = {
	security: { auth: { selectedType: 'gemini-api-key' } },
	telemetry: { enabled: false },
	privacy: { usageStatisticsEnabled: false },
	general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
};

function conversation(ctx: ClientContext, transport: string, addArgs: string[], { healthCheck = false } = {}): Promise<void> {
	const gemini = [process.execPath, ctx.clients.gemini];
	// An @server:uri mention: the client reads the resource and puts it into the prompt.
	const mention = `@${ctx.serverName}:${pathToFileURL(path.join(ctx.fixture, 'docs', 'guide.md')).href}`;
	return converse(ctx, {
		tool: `gemini ${transport}`,
		// Gemini CLI reads only the URIs it listed: a template URI is "not found" in the client itself.
		steps: [...conversationSteps(ctx.fixture, { templates: false }), ...toolSteps(ctx.fixture)],
		startStandIn: script => startGeminiStandIn(script, step => step.kind === 'list' ? { serverName: ctx.serverName } : { uri: step.uri }, ctx.serverName),
		env: standIn => ({ GEMINI_API_KEY: 'outside-checks-dummy', GOOGLE_GEMINI_BASE_URL: standIn.url, GEMINI_SANDBOX: 'false' }),
		prepare: env => {
			const home = env.HOME ?? '';
			mkdirSync(path.join(home, '.gemini'), { recursive: true });
			writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify(SETTINGS, null, 2));
			mkdirSync(path.join(home, '.gemini', 'policies'), { recursive: true });
			writeFileSync(path.join(home, '.gemini', 'policies', 'workspace-tools.toml'), readOnlyToolsPolicy(ctx.serverName));
			// Gemini CLI disables every MCP server, user-level ones too, in a folder it does not trust:
			// trust the run's folder (its cwd) as a user does by answering the trust prompt.
			writeFileSync(path.join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [path.dirname(home)]: 'TRUST_FOLDER' }, null, 2));
		},
		add: [...gemini, 'mcp', 'add', ...addArgs],
		addLabel: `gemini mcp add ${addArgs.slice(0, addArgs.indexOf(ctx.serverName) + 1).join(' ')}`,
		list: healthCheck ? [...gemini, 'mcp', 'list'] : undefined,
		listLabel: 'gemini mcp list',
		run: [...gemini, '-p', `Read ${mention}, then list the workspace resources and read them, then use the workspace tools.`],
		afterRun: standIn => {
			const expanded = standIn.userTexts.some(text => text.includes('## Guide'));
			return [{
				label: `expands ${mention.replace(ctx.fixture, '…')} into the prompt`,
				ok: expanded,
				detail: expanded ? '' : `the prompt the model got: ${JSON.stringify((standIn.userTexts[0] ?? '').slice(0, 300))}`,
			}];
		},
	});
}

export async function checkGemini(ctx: ClientContext, setup: ClientSetup): Promise<void> {
	await conversation(ctx, 'stdio', ['--scope', 'user', ctx.serverName, ...setup.stdio]);
	const lines = setup.configLines.gemini;
	await conversation(ctx, 'http', productAddArgs('gemini', lines, 'HTTP', line => line.includes('--transport http')));
	await conversation(ctx, 'bridge', productAddArgs('gemini', lines, 'the bridge', line => line.includes(' bridge ')), { healthCheck: true });
}
