import * as http from 'node:http';

export interface RawResponse {
	status: number;
	headers: http.IncomingHttpHeaders;
	body: string;
}

/** A raw HTTP request to a loopback server, so headers a fetch client would fix up can be sent as given. */
export function raw(port: number, options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<RawResponse> {
	return new Promise((resolve, reject) => {
		const req = http.request({ host: '127.0.0.1', port, method: options.method ?? 'POST', path: options.path ?? '/mcp', headers: options.headers }, res => {
			const chunks: Buffer[] = [];
			res.on('data', c => chunks.push(c));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
		});
		req.on('error', reject);
		req.end(options.body);
	});
}
