import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import { createMcpHandler, McpHttpHandler, ResourceNotFoundError, Server } from '@modelcontextprotocol/server';
import { listenOnLoopback, lockFileAdvert, resourcePage, StandInWindow, StandInWindowOptions } from './standInWindow';

/**
 * A minimal 2026-07-28-only server on loopback, built on SDK v2's `createMcpHandler` (stateless,
 * `subscriptions/listen` from the SDK), standing in for a window while the real server moves to
 * v2: bearer token on every request, paged `resources/list`, and a listen acknowledgement that
 * leaves out the URIs it refuses (filtered before the SDK sees the request, as the SDK has no
 * per-URI hook: typescript-sdk #2827). It records each request's method and listen filter.
 */
export interface ModernWindow extends StandInWindow {
	/** The `resourceSubscriptions` of each listen request, as the client sent them. */
	readonly listens: string[][];
	/** URIs it refuses: not found on read, never acknowledged or notified. */
	readonly refused: Set<string>;
	/**
	 * Called with each listen request's URIs when it has arrived and before the SDK serves it (so
	 * before the new stream exists): a test can make the window publish something at that moment.
	 */
	onListen?: (uris: readonly string[]) => void;
}

export async function startModernWindow(options: StandInWindowOptions): Promise<ModernWindow> {
	const token = randomBytes(16).toString('hex');
	const methods: string[] = [];
	const listens: string[][] = [];
	const refused = new Set(options.refused ?? []);

	const build = () => {
		const server = new Server({ name: 'modern-window', version: '1.0.0' }, { capabilities: { resources: { subscribe: true, listChanged: true } } });
		server.setRequestHandler('resources/list', async req => resourcePage(options, refused, req.params?.cursor));
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
				window.onListen?.(requested);
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
	const { url, close } = await listenOnLoopback(serve);
	const lockFile = lockFileAdvert(url, token);
	const window: ModernWindow = {
		url, token, methods, listens, refused,
		updated: uri => void handler.notify.resourceUpdated(uri),
		listChanged: () => void handler.notify.resourcesChanged(),
		advertise: lockFile.advertise,
		close: async () => {
			await lockFile.withdraw();
			await handler.close();
			await close();
		},
	};
	return window;
}
