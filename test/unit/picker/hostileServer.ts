import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
	ListResourcesRequestSchema, ListResourcesResult, ListResourceTemplatesRequestSchema, ListResourceTemplatesResult,
	ReadResourceRequestSchema, ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { nullLogger } from '../../../src/common/logger';
import { ServerConnection } from '../../../src/picker/serverConnection';

/** What the hostile server answers; each handler gets the cursor (or URI) it was asked for. */
export interface HostileBehaviour {
	list?(cursor: string | undefined): ListResourcesResult;
	templates?(cursor: string | undefined): ListResourceTemplatesResult;
	read?(uri: string): ReadResourceResult;
	/** Answers `resources/read` itself, bytes as it likes, instead of through the SDK server. */
	rawRead?(id: unknown, res: http.ServerResponse): void;
	/** `serverInfo.icons` */
	icons?: { src: string; mimeType?: string; theme?: 'light' | 'dark' }[];
}

export interface HostileServer {
	readonly url: string;
	/** Requests per method, to show how far the picker followed it. */
	readonly calls: Map<string, number>;
	/** A picker connection to it (with the byte cap on one message the picker gives other servers). */
	connect(maxMessageBytes?: number): ServerConnection;
	close(): Promise<void>;
}

/**
 * A real SDK `Server` over loopback Streamable HTTP (stateless: a server per request) that
 * answers whatever the test scripts, however wrong: the other side of the picker's trust line.
 */
export async function startHostileServer(behaviour: HostileBehaviour): Promise<HostileServer> {
	const calls = new Map<string, number>();
	const count = (method: string) => calls.set(method, (calls.get(method) ?? 0) + 1);
	const connections: ServerConnection[] = [];
	const httpServer = http.createServer((req, res) => {
		const server = new Server(
			{ name: 'hostile', version: '6.6.6', ...(behaviour.icons ? { icons: behaviour.icons } : {}) },
			{ capabilities: { resources: {} } },
		);
		server.setRequestHandler(ListResourcesRequestSchema, async request => {
			count('resources/list');
			return behaviour.list?.(request.params?.cursor) ?? { resources: [] };
		});
		server.setRequestHandler(ListResourceTemplatesRequestSchema, async request => {
			count('resources/templates/list');
			return behaviour.templates?.(request.params?.cursor) ?? { resourceTemplates: [] };
		});
		server.setRequestHandler(ReadResourceRequestSchema, async request => {
			count('resources/read');
			return behaviour.read?.(request.params.uri) ?? { contents: [] };
		});
		const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
		res.on('close', () => {
			void transport.close();
			void server.close();
		});
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body: unknown = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
			const message = body as { method?: unknown; id?: unknown } | undefined;
			if (behaviour.rawRead && message?.method === 'resources/read') {
				count('resources/read');
				behaviour.rawRead(message.id, res);
				return;
			}
			void server.connect(transport).then(() => transport.handleRequest(req, res, body));
		});
	});
	await new Promise<void>(resolve => httpServer.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
	return {
		url,
		calls,
		connect(maxMessageBytes?: number) {
			const target = { kind: 'http' as const, url, headers: {}, ...(maxMessageBytes !== undefined ? { maxMessageBytes } : {}) };
			const connection = new ServerConnection('hostile', 'Hostile', { resolve: async () => target }, { log: nullLogger, backoffMs: [60_000] });
			connections.push(connection);
			return connection;
		},
		async close() {
			connections.forEach(c => c.dispose());
			httpServer.closeAllConnections();
			await new Promise(resolve => httpServer.close(resolve));
		},
	};
}

/** `n` resources named `prefix-<i>` from `start`, with a description of `descriptionChars` characters. */
export function someResources(prefix: string, start: number, n: number, descriptionChars = 0): ListResourcesResult['resources'] {
	return Array.from({ length: n }, (_, i) => ({
		uri: `test://${prefix}/${start + i}`,
		name: `${prefix}-${start + i}`,
		...(descriptionChars > 0 ? { description: 'd'.repeat(descriptionChars) } : {}),
	}));
}
