import { PassThrough } from 'node:stream';
import { ReadBuffer, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { SessionOptions } from '../../src/mcp/server/workspaceServer';
import { serveStdioConnection, StdioConnection } from '../../src/mcp/stdio/serveStdioConnection';
import { StdioTransport } from '../../src/mcp/stdio/stdioTransport';

/**
 * The client end of a stdio connection to a server in this process: newline-delimited JSON-RPC
 * over a pair of pipes, as `StdioClientTransport` speaks it to a child's stdin and stdout.
 */
class PipeClientTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: (message: JSONRPCMessage) => void;
	private readonly buffer = new ReadBuffer();
	private closed = false;

	constructor(private readonly toServer: PassThrough, private readonly fromServer: PassThrough) {}

	async start(): Promise<void> {
		this.fromServer.on('data', (chunk: Buffer) => {
			this.buffer.append(chunk);
			for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage()) {
				this.onmessage?.(message);
			}
		});
		this.fromServer.on('end', () => void this.close());
	}

	async send(message: JSONRPCMessage): Promise<void> {
		this.toServer.write(serializeMessage(message));
	}

	async close(): Promise<void> {
		if (!this.closed) {
			this.closed = true;
			this.toServer.end();
			this.onclose?.();
		}
	}
}

/** `serveStdioConnection` on in-process pipes: the stdio host as `serve --stdio` runs it, with a client transport to it. */
export function pipedStdio(options: SessionOptions): { readonly host: StdioConnection; readonly transport: Transport } {
	const toServer = new PassThrough();
	const fromServer = new PassThrough();
	const host = serveStdioConnection(options, new StdioTransport(toServer, fromServer));
	return { host, transport: new PipeClientTransport(toServer, fromServer) };
}
