// The minimal SDK server, an anchor of the reads section: what the official SDK v2 costs when a
// server adds nothing of its own. It lists the folder's files (walked once at start) in pages of
// 1,000 and reads them, in both eras: over stdio through the SDK's `serveStdio`, over HTTP
// through its `createMcpHandler` (2026-07-28; 2025 through its stateless fallback) behind a
// bearer token. It takes our CLI's command line (`serve --root DIR --stdio|--http`, the HTTP url
// and token as the first stdout line), so the sections start it like a build of ours.
// Bundled by builtScript.ts before it runs, so no TypeScript loader sits in the process measured.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const PAGE_SIZE = 1000;
const args = process.argv.slice(2);
const root = path.resolve(args[args.indexOf('--root') + 1]);

function walk(dir: string, out: string[]): string[] {
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) walk(full, out);
		else if (entry.isFile()) out.push(pathToFileURL(full).href);
	}
	return out;
}
const uris = walk(root, []).sort();
const served = new Set(uris);

function createServer(): Server {
	const server = new Server({ name: 'minimal-sdk-server', version: '1.0.0' }, { capabilities: { resources: {} } });
	server.setRequestHandler('resources/list', request => {
		const start = Number(request.params?.cursor ?? 0);
		const end = start + PAGE_SIZE;
		const resources = uris.slice(start, end).map(uri => ({ uri, name: path.basename(uri) }));
		return end < uris.length ? { resources, nextCursor: String(end) } : { resources };
	});
	server.setRequestHandler('resources/read', async request => {
		const { uri } = request.params;
		if (!served.has(uri)) throw new Error(`not served: ${uri}`);
		const bytes = await fs.promises.readFile(new URL(uri));
		return { contents: [bytes.includes(0) ? { uri, blob: bytes.toString('base64') } : { uri, text: bytes.toString('utf8') }] };
	});
	return server;
}

if (args.includes('--stdio')) {
	serveStdio(() => createServer());
} else {
	const handler = createMcpHandler(() => createServer());
	const token = randomBytes(16).toString('hex');
	const listener = http.createServer((req, res) => {
		void (async () => {
			if (req.headers.authorization !== `Bearer ${token}`) {
				res.writeHead(401).end();
				return;
			}
			const chunks: Buffer[] = [];
			for await (const chunk of req) chunks.push(chunk as Buffer);
			const headers = new Headers();
			for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
			const body = chunks.length ? Buffer.concat(chunks) : undefined;
			const response = await handler.fetch(new Request(`http://127.0.0.1${req.url ?? '/'}`, { method: req.method, headers, body }));
			res.writeHead(response.status, Object.fromEntries(response.headers));
			const reader = response.body?.getReader();
			for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) res.write(chunk.value);
			res.end();
		})().catch(err => {
			process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
			if (!res.headersSent) res.writeHead(500);
			res.end();
		});
	});
	listener.listen(0, '127.0.0.1', () => {
		const { port } = listener.address() as { port: number };
		process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/mcp`, token })}\n`);
	});
	process.once('SIGTERM', () => {
		listener.close();
		void handler.close().finally(() => process.exit(0));
	});
}
