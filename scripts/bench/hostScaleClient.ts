// The host-scale bench's MCP client of the server in the editor (the SDK's, over its HTTP endpoint).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const CLIENT_INFO = { name: 'mcp-workspace-resources-host-bench', version: '0.1.0' };

/** A client connected with the lock file's URL and token. */
export async function connectClient(lock: { url: string; token: string }): Promise<Client> {
	const transport = new StreamableHTTPClientTransport(new URL(lock.url), {
		requestInit: { headers: { Authorization: `Bearer ${lock.token}` } },
	});
	const client = new Client(CLIENT_INFO, { capabilities: {} });
	await client.connect(transport);
	return client;
}

/** Lists every page; counts the file resources and the pages, and with `uris`, names the files. */
export async function listAll(client: Client, { uris = false } = {}): Promise<{ files: number; pages: number; uris: string[] }> {
	let cursor: string | undefined;
	const files: string[] = [];
	let count = 0;
	let pages = 0;
	do {
		const res = await client.listResources(cursor ? { cursor } : undefined, { timeout: 120_000 });
		pages++;
		for (const r of res.resources) {
			if (!r.uri.startsWith('file://')) continue;
			count++;
			if (uris) files.push(r.uri);
		}
		cursor = res.nextCursor;
	} while (cursor !== undefined);
	return { files: count, pages, uris: files };
}
