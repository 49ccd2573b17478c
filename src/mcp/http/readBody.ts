import type * as http from 'node:http';

/** A request body up to `limit` bytes: refused early when its Content-Length says it is larger. */
export function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer | 'too-large' | 'aborted'> {
	return new Promise(resolve => {
		const declared = Number(req.headers['content-length']);
		if (Number.isFinite(declared) && declared > limit) {
			req.resume();
			resolve('too-large');
			return;
		}
		const chunks: Buffer[] = [];
		let size = 0;
		let done = false;
		req.on('data', (chunk: Buffer) => {
			if (done) {
				return;
			}
			size += chunk.length;
			if (size > limit) {
				done = true;
				req.resume();
				resolve('too-large');
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => {
			if (!done) {
				done = true;
				resolve(Buffer.concat(chunks));
			}
		});
		req.on('error', () => {
			if (!done) {
				done = true;
				resolve('aborted');
			}
		});
		req.on('aborted', () => {
			if (!done) {
				done = true;
				resolve('aborted');
			}
		});
	});
}
