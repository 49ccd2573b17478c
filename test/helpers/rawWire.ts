import { ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { CLI, cliEnv } from './headlessHost';

/** The 2026-07-28 per-request envelope, as SDK v2 clients send it. */
export const MODERN_ENVELOPE = {
	'io.modelcontextprotocol/protocolVersion': '2026-07-28',
	'io.modelcontextprotocol/clientCapabilities': {},
	'io.modelcontextprotocol/clientInfo': { name: 'raw-invariants', version: '1' },
};

/** A JSON-RPC answer as it came over the wire. */
export interface Answer {
	readonly result?: unknown;
	readonly error?: { code: number; message: string; data?: unknown };
	/** The HTTP status, for answers over HTTP. */
	readonly status?: number;
}

/** Sends any method with any params, as no SDK client would, and returns the server's answer. */
export interface RawWire {
	readonly label: string;
	send(method: string, params: unknown): Promise<Answer>;
	close(): Promise<void>;
}

/** `serve --stdio`, spoken to line by line; a modern wire opens with a well-formed 2026-07-28 request (the era is chosen by the first). */
export function rawStdio(root: string, home: string, era: 'modern' | 'legacy'): Promise<RawWire> {
	return rawCli(['serve', '--root', root, '--stdio', '--log-level', 'warn'], home, era, `stdio ${era}`);
}

/** The bridge to the window serving `workspace` (found by its lock file in `home`), spoken to as `rawStdio`. */
export function rawBridge(workspace: string, home: string, era: 'modern' | 'legacy'): Promise<RawWire> {
	return rawCli(['bridge', '--workspace', workspace, '--log-level', 'warn'], home, era, `bridge ${era}`);
}

async function rawCli(args: string[], home: string, era: 'modern' | 'legacy', label: string): Promise<RawWire> {
	const child: ChildProcess = spawn(process.execPath, [CLI, ...args], { env: cliEnv(home), stdio: ['pipe', 'pipe', 'pipe'] });
	const waiting = new Map<number, { resolve: (answer: Answer) => void; reject: (err: Error) => void }>();
	let stderr = '';
	child.stderr!.on('data', d => (stderr += d));
	child.once('exit', code => waiting.forEach(w => w.reject(new Error(`${label} exited with ${code}: ${stderr}`))));
	createInterface({ input: child.stdout! }).on('line', line => {
		const message = JSON.parse(line) as Answer & { id?: number };
		if (typeof message.id === 'number') {
			waiting.get(message.id)?.resolve(message);
			waiting.delete(message.id);
		}
	});
	let nextId = 0;
	const send = (method: string, params: unknown): Promise<Answer> => new Promise((resolve, reject) => {
		const id = ++nextId;
		waiting.set(id, { resolve, reject });
		child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }) + '\n');
	});
	const opened = era === 'modern'
		? await send('resources/templates/list', { _meta: MODERN_ENVELOPE })
		: await send('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-invariants', version: '1' } });
	if (!opened.result) {
		throw new Error(`could not open a ${era} stdio connection: ${JSON.stringify(opened)}`);
	}
	if (era === 'legacy') {
		child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
	}
	return {
		label, send,
		close: async () => {
			child.kill();
			await new Promise(resolve => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
		},
	};
}

/** The JSON-RPC message in an HTTP answer: a JSON body, or the first `data:` event of an SSE one. */
function answerOf(status: number, body: string): Answer {
	const data = body.split('\n').find(l => l.startsWith('data:'));
	try {
		return { status, ...JSON.parse(data ? data.slice(5) : body) as Answer };
	} catch {
		return { status };
	}
}

/** Loopback HTTP with the token: 2026-07-28 requests with their headers, or one 2025 session. */
export async function rawHttp(url: string, token: string, era: 'modern' | 'legacy'): Promise<RawWire> {
	const headers: Record<string, string> = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
	let id = 0;
	const post = async (method: string, params: unknown, extra: Record<string, string>): Promise<Answer> => {
		const res = await fetch(url, {
			method: 'POST', headers: { ...headers, ...extra },
			body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, ...(params === undefined ? {} : { params }) }),
		});
		return answerOf(res.status, await res.text());
	};
	if (era === 'modern') {
		return {
			label: 'http modern',
			send: (method, params) => {
				// The headers a client derives from the body; the server checks them against it.
				// (Only for methods that name something, and never over 8 KB: a header that size is
				// refused by HTTP itself, 431, before any MCP is read.)
				const p = params as { uri?: unknown; name?: unknown } | null | undefined;
				const named = ['resources/read', 'tools/call', 'prompts/get'].includes(method);
				const candidate = typeof p?.uri === 'string' ? p.uri : typeof p?.name === 'string' ? p.name : undefined;
				const name = named && candidate !== undefined && candidate.length <= 8192 ? candidate : undefined;
				const ascii = name !== undefined && /^[\x20-\x7e]*$/.test(name);
				return post(method, params, {
					'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method,
					...(name !== undefined && { 'Mcp-Name': ascii ? name : `=?base64?${Buffer.from(name).toString('base64')}?=` }),
				});
			},
			close: async () => undefined,
		};
	}
	const init = await fetch(url, {
		method: 'POST', headers,
		body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-invariants', version: '1' } } }),
	});
	const session = init.headers.get('mcp-session-id') ?? '';
	await init.text();
	const sessionHeaders = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
	await fetch(url, { method: 'POST', headers: { ...headers, ...sessionHeaders }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) }).then(r => r.text());
	return {
		label: 'http legacy',
		send: (method, params) => post(method, params, sessionHeaders),
		close: async () => {
			await fetch(url, { method: 'DELETE', headers: { ...headers, ...sessionHeaders } }).then(r => r.text());
		},
	};
}
