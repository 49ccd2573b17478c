// The HTTP(S) proxy the real clients are given: it refuses every request and remembers where it
// was going, so nothing leaves the machine and the run can say what a client tried to reach.
import * as http from 'node:http';

/** Starts the sink; `attempts` maps a target (host:port or URL origin) to the labels that tried it. */
export function startOffMachineSink() {
	const attempts = new Map();
	let label = '';
	const note = target => {
		const labels = attempts.get(target) ?? new Set();
		labels.add(label);
		attempts.set(target, labels);
	};
	const server = http.createServer((req, res) => {
		try {
			note(new URL(req.url).origin);
		} catch {
			note(String(req.headers.host));
		}
		res.writeHead(403, { connection: 'close' });
		res.end();
	});
	server.on('connect', (req, socket) => {
		note(req.url);
		socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
	});
	return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve({
		url: `http://127.0.0.1:${server.address().port}`,
		attempts,
		/** Attributes the attempts that follow to `next` (the client runs one at a time). */
		setLabel: next => { label = next; },
		close: () => {
			server.closeAllConnections();
			server.close();
		},
	})));
}
