// The HTTP side of a model stand-in: a loopback server for JSON requests, and server-sent events.
import * as http from 'node:http';

/**
 * A loopback HTTP server that hands each JSON request to `handle(req, body, res)`. Keeps a log of
 * every request line, so a run that goes wrong shows what the client asked for.
 */
export function startStandIn(handle) {
	const log = [];
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', c => chunks.push(c));
		req.on('end', () => {
			const raw = Buffer.concat(chunks).toString('utf8');
			let body;
			try {
				body = raw ? JSON.parse(raw) : {};
			} catch {
				body = { raw };
			}
			log.push(`${req.method} ${req.url}`);
			try {
				handle(req, body, res);
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
		url: `http://127.0.0.1:${server.address().port}`,
		close: () => {
			server.closeAllConnections();
			server.close();
		},
	})));
}

/** Writes server-sent events: [event name or undefined, data object] pairs, then ends. */
export function sendEvents(res, events) {
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	for (const [event, data] of events) {
		res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
	}
	res.end();
}
