// The HTTP(S) proxy the real clients are given: it refuses every request and remembers where it
// was going, so nothing leaves the machine and the run can say what a client tried to reach.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OffMachineSink {
	url: string;
	/** Each target (host:port or URL origin) and the labels that tried it. */
	attempts: Map<string, Set<string>>;
	/** Attributes the attempts that follow to `next` (the client runs one at a time). */
	setLabel(next: string): void;
	close(): void;
}

/** Starts the sink; `attempts` maps a target (host:port or URL origin) to the labels that tried it. */
export function startOffMachineSink(): Promise<OffMachineSink> {
	const attempts = new Map<string, Set<string>>();
	let label = '';
	const note = (target: string) => {
		const labels = attempts.get(target) ?? new Set<string>();
		labels.add(label);
		attempts.set(target, labels);
	};
	const server = http.createServer((req, res) => {
		try {
			note(new URL(req.url ?? '').origin);
		} catch {
			note(String(req.headers.host));
		}
		res.writeHead(403, { connection: 'close' });
		res.end();
	});
	server.on('connect', (req, socket) => {
		note(req.url ?? '');
		socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
	});
	return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve({
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		attempts,
		setLabel: next => { label = next; },
		close: () => {
			server.closeAllConnections();
			server.close();
		},
	})));
}
