import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { cappedFetch } from './cappedFetch';
import { ConnectionTarget } from './connectionSource';

/**
 * The SDK transport that reaches `target`: Streamable HTTP with its headers (the bearer token) on
 * every request, or a started stdio server whose stderr goes to `onStderr` (its last words say
 * why a start failed).
 */
export function createClientTransport(target: ConnectionTarget, onStderr: (text: string) => void): StreamableHTTPClientTransport | StdioClientTransport {
	if (target.kind === 'http') {
		return new StreamableHTTPClientTransport(new URL(target.url), {
			requestInit: { headers: { ...target.headers } },
			...(target.maxMessageBytes !== undefined
				? { fetch: cappedFetch(target.fetch ?? fetch, target.maxMessageBytes) }
				: target.fetch ? { fetch: target.fetch } : {}),
			// The reconnecting client reconnects itself (a restarted server may have a new port and
			// token): the transport's own retries would only delay noticing.
			reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 },
			// (SDK v2 joins its transport signal and each request's with AbortSignal.any, so many
			// requests at once no longer pile abort listeners on one signal: no warning flood.)
		});
	}
	const transport = new StdioClientTransport({
		command: target.command,
		args: [...target.args],
		env: { ...getDefaultEnvironment(), ...target.env },
		cwd: target.cwd,
		stderr: 'pipe',
	});
	transport.stderr?.on('data', (chunk: Buffer) => onStderr(chunk.toString('utf8')));
	return transport;
}
