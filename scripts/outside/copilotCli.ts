// GitHub Copilot CLI: the client whose model cannot read MCP resources at all, so it reaches the
// workspace only through our tools. Added with `copilot mcp add` (the very lines "Connect a
// Client..." generates for HTTP and the bridge, the same form for `serve --stdio`); driven with
// `copilot -p` offline (COPILOT_OFFLINE), its model a local stand-in through the documented
// bring-your-own-model variables, speaking the Anthropic Messages API.
import { startAnthropicStandIn } from './anthropicStandIn.js';
import { converse, productAddArgs, toolSteps, type ClientContext, type ClientSetup } from './clientRun.js';

/** Copilot CLI 1.0.102's name for a tool of the MCP server `serverName`. */
export function copilotToolName(serverName: string, tool: string): string {
	return `${serverName}-${tool}`;
}

function conversation(ctx: ClientContext, transport: string, addArgs: string[]): Promise<void> {
	const copilot = ctx.clients.copilot;
	return converse(ctx, {
		tool: `copilot ${transport}`,
		steps: toolSteps(ctx.fixture),
		startStandIn: script => startAnthropicStandIn(script, ctx.serverName, copilotToolName),
		env: standIn => ({
			COPILOT_OFFLINE: 'true',
			COPILOT_PROVIDER_BASE_URL: standIn.url,
			COPILOT_PROVIDER_TYPE: 'anthropic',
			COPILOT_PROVIDER_API_KEY: 'outside-checks-dummy',
			COPILOT_MODEL: 'claude-sonnet-4.5',
		}),
		add: [copilot, 'mcp', 'add', ...addArgs],
		addLabel: `copilot mcp add ${addArgs.join(' ').split(' -- ')[0].replace(/--header .*/, '--header …')}`,
		// -p needs its tools allowed up front: only the server's.
		run: [copilot, '-p', 'Use the workspace tools to look at the workspace.', '--allow-tool', ctx.serverName, '--disable-client-telemetry'],
	});
}

export async function checkCopilot(ctx: ClientContext, setup: ClientSetup): Promise<void> {
	const lines = setup.configLines.copilot;
	await conversation(ctx, 'stdio', [ctx.serverName, '--', ...setup.stdio]);
	await conversation(ctx, 'http', productAddArgs('copilot', lines, 'HTTP', line => line.includes('--transport http')));
	await conversation(ctx, 'bridge', productAddArgs('copilot', lines, 'the bridge', line => line.includes(' bridge ')));
}
