import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import { createMcpHandler, McpHttpHandler, ResourceNotFoundError, Server } from '@modelcontextprotocol/server';
import { nullLogger } from '../../src/common/logger';
import { LockFileContent, removeLockFile, writeLockFile } from '../../src/mcp/lockFile';

/**
 * A minimal 2026-07-28-only server on loopback, built on SDK v2's `createMcpHandler` (stateless,
 * `subscriptions/listen` from the SDK), standing in for a window while the real server moves to
 * v2: bearer token on every request, paged `resources/list`, and a listen acknowledgement that
 * leaves out the URIs it refuses (filtered before the SDK sees the request, as the SDK has no
 * per-URI hook: typescript-sdk #2827). It records each request's method and listen filter.
 */
export interface ModernWindow {
	readonly url: string;
	readonly token: string;
	/** Methods of the requests that reached it, in order. */
	readonly methods: string[];
	/** The `resourceSubscriptions` of each listen request, as the client sent them. */
	readonly listens: string[][];
	/** URIs it refuses: not found on read, never acknowledged or notified. */
	readonly refused: Set<string>;
	updated(uri: string): void;
	listChanged(): void;
	/** Writes a lock file for `folders` in `home` under this process's pid, as a window does. */
	advertise(home: string, folders: string[]): Promise<void>;
	close(): Promise<void>;
}

export interface ModernWindowOptions {
	/** uri -> text, listed in this order. */
	readonly resources: ReadonlyMap<string, string>;
	readonly pageSize?: number;
	readonly refused?: readonly string[];
}

export async function startModernWindow(options: ModernWindowOptions): Promise<ModernWindow> {
	const token = randomBytes(16).toString('hex');
	const methods: string[] = [];
	const listens: string[][] = [];
	const refused = new Set(options.refused ?? []);
	const uris = [...options.resources.keys()];
	const pageSize = options.pageSize ?? 2;

	const build = () => {
		const server = new Server({ name: 'modern-window', version: '1.0.0' }, { capabilities: { resources: { subscribe: true, listChanged: true } } });
		server.setRequestHandler('resources/list', async req => {
			const start = req.params?.cursor ? Number(req.params.cursor) : 0;
			const page = uris.slice(start, start + pageSize).filter(u => !refused.has(u));
			const next = start + pageSize < uris.length ? String(start + pageSize) : undefined;
			return { resources: page.map(uri => ({ uri, name: uri.split('/').pop()! })), ...(next ? { nextCursor: next } : {}) };
		});
		server.setRequestHandler('resources/read', async req => {
			const text = options.resources.get(req.params.uri);
			if (text === undefined || refused.has(req.params.uri)) {
				throw new ResourceNotFoundError(req.params.uri);
			}
			return { contents: [{ uri: req.params.uri, mimeType: 'text/plain', text }] };
		});
		server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: [] }));
		return server;
	};
	const handler: McpHttpHandler = createMcpHandler(build, { legacy: 'reject' });

	const httpServer = http.createServer((req, res) => void serve(req, res).catch(() => res.destroy()));
	const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
		if (req.headers.authorization !== `Bearer ${token}`) {
			res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized' }));
			return;
		}
		const chunks: Buffer[] = [];
		for await (const chunk of req) {
			chunks.push(chunk as Buffer);
		}
		let body = Buffer.concat(chunks).toString('utf8');
		if (req.method === 'POST' && body) {
			const message = JSON.parse(body) as { method?: string; params?: { notifications?: { resourceSubscriptions?: string[] } } };
			if (message.method) {
				methods.push(message.method);
			}
			const requested = message.params?.notifications?.resourceSubscriptions;
			if (message.method === 'subscriptions/listen' && Array.isArray(requested)) {
				listens.push([...requested]);
				message.params!.notifications!.resourceSubscriptions = requested.filter(u => !refused.has(u) && options.resources.has(u));
				body = JSON.stringify(message);
			}
		}
		const headers = new Headers();
		for (const [name, value] of Object.entries(req.headers)) {
			if (typeof value === 'string') {
				headers.set(name, value);
			}
		}
		headers.delete('content-length');
		const abort = new AbortController();
		res.on('close', () => abort.abort());
		const response = await handler.fetch(new Request(`http://${req.headers.host}${req.url}`, {
			method: req.method, headers, signal: abort.signal, ...(req.method === 'POST' ? { body } : {}),
		}));
		res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
		res.flushHeaders();
		if (response.body) {
			try {
				for await (const chunk of response.body) {
					res.write(chunk);
				}
			} catch {
				// the client went away
			}
		}
		res.end();
	};
	await new Promise<void>(resolve => httpServer.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
	let advertisedIn: string | undefined;
	return {
		url, token, methods, listens, refused,
		updated: uri => void handler.notify.resourceUpdated(uri),
		listChanged: () => void handler.notify.resourcesChanged(),
		advertise: async (home, folders) => {
			const lock: LockFileContent = {
				url, token, workspaceFolders: folders, pid: process.pid, version: '0', host: 'vscode', startedAt: new Date().toISOString(),
			};
			await writeLockFile(lock, nullLogger, home);
			advertisedIn = home;
		},
		close: async () => {
			if (advertisedIn) {
				await removeLockFile(process.pid, advertisedIn);
			}
			await handler.close();
			httpServer.closeAllConnections();
			await new Promise<void>(resolve => httpServer.close(() => resolve()));
		},
	};
}
