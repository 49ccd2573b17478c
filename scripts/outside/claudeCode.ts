// Claude Code: added with the exact `claude mcp add` lines "Connect a Client..." generates (the
// bridge, and HTTP with the token), and the same form for `serve --stdio`; driven in `-p` mode.
import { claudeToolName, startAnthropicStandIn } from './anthropicStandIn.js';
import { conversationSteps, converse, productAddArgs, toolSteps, type ClientContext, type ClientSetup } from './clientRun.js';

/** Telemetry, error reports and auto-update off; a dummy key (the stand-in takes any). */
const CLAUDE_ENV = {
	ANTHROPIC_API_KEY: 'sk-ant-outside-checks-dummy',
	DISABLE_AUTOUPDATER: '1',
	DISABLE_TELEMETRY: '1',
	DISABLE_ERROR_REPORTING: '1',
	DISABLE_BUG_COMMAND: '1',
	CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
	// In -p runs, wait for MCP servers to connect before the first model request.
	MCP_CONNECTION_NONBLOCKING: 'false',
};

function conversation(ctx: ClientContext, transport: string, addArgs: string[], { healthCheck = false } = {}): Promise<void> {
	const claude = ctx.clients.claude;
	const steps = [...conversationSteps(ctx.fixture), ...toolSteps(ctx.fixture)];
	// -p runs only the tools allowed here: the resource tools, ToolSearch, and ours by Claude Code's names for them.
	const ours = [...new Set(steps.flatMap(s => s.kind === 'tool' ? [claudeToolName(ctx.serverName, s.tool!)] : []))];
	return converse(ctx, {
		tool: `claude-code ${transport}`,
		steps,
		startStandIn: script => startAnthropicStandIn(script, ctx.serverName),
		env: standIn => ({ ...CLAUDE_ENV, ANTHROPIC_BASE_URL: standIn.url }),
		add: [claude, 'mcp', 'add', ...addArgs],
		addLabel: `claude mcp add ${addArgs.join(' ').split(' -- ')[0].replace(/--header .*/, '--header …')}`,
		list: healthCheck ? [claude, 'mcp', 'list'] : undefined,
		listLabel: 'claude mcp list',
		// ToolSearch: Claude Code offers MCP tools deferred, behind it (the stand-in loads them).
		run: [claude, '-p', 'List the workspace resources and read them, then use the workspace tools.', '--allowedTools', ['ListMcpResourcesTool', 'ReadMcpResourceTool', 'ToolSearch', ...ours].join(',')],
	});
}

export async function checkClaudeCode(ctx: ClientContext, setup: ClientSetup): Promise<void> {
	const lines = setup.configLines.claude;
	await conversation(ctx, 'stdio', ['--scope', 'user', ctx.serverName, '--', ...setup.stdio]);
	await conversation(ctx, 'http', productAddArgs('claude', lines, 'HTTP', line => line.includes('--transport http')));
	await conversation(ctx, 'bridge', productAddArgs('claude', lines, 'the bridge', line => line.includes(' bridge ')), { healthCheck: true });
}
