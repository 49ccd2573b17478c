// The HTTP side of a model stand-in: a loopback server for JSON requests, and server-sent events.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running stand-in: its URL, the log of what it was asked, and close(). */
export interface StandIn {
	server: http.Server;
	url: string;
	log: string[];
	close(): void;
}

/** Handles one request: `body` is its JSON in the shape the API sends (`{ raw }` when it is not JSON, `{}` when empty). */
export type StandInHandler<B> = (req: http.IncomingMessage & { url: string }, body: Partial<B>, res: http.ServerResponse) => void;

/**
 * A loopback HTTP server that hands each JSON request to `handle(req, body, res)`. Keeps a log of
 * every request line, so a run that goes wrong shows what the client asked for.
 */
export function startStandIn<B>(handle: StandInHandler<B>): Promise<StandIn> {
	const log: string[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const raw = Buffer.concat(chunks).toString('utf8');
			let body: Partial<B>;
			try {
				body = raw ? JSON.parse(raw) as Partial<B> : {};
			} catch {
				body = { raw } as unknown as Partial<B>; // no field of B: the handler sees an empty request
			}
			log.push(`${req.method} ${req.url}`);
			try {
				handle(req as http.IncomingMessage & { url: string }, body, res);
			} catch (err) {
				log.push(`  stand-in error: ${err instanceof Error ? err.message : String(err)}`);
				if (!res.headersSent) {
					res.writeHead(500, { 'content-type': 'application/json' });
				}
				res.end('{}');
			}
		});
	});
	return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve({
		server,
		log,
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () => {
			server.closeAllConnections();
			server.close();
		},
	})));
}

/** Writes server-sent events: [event name or undefined, data object] pairs, then ends. */
export function sendEvents(res: http.ServerResponse, events: readonly (readonly [string | undefined, unknown])[]): void {
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	for (const [event, data] of events) {
		res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
	}
	res.end();
}
