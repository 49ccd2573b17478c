// Contenders for scripts/bench/bench.mjs: the fs floor, @modelcontextprotocol/server-filesystem over stdio,
// and our `dist/cli.js serve` over stdio and Streamable HTTP. Each MCP contender exposes
// enumerate() -> absolute file paths, read(absPath) -> text, ping(), pid, close().
import { spawn } from 'node:child_process';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { walkFiles } from './workspace.js';
import { isAlive, killPidAtExit } from '../lib/processes.js';
import { TailBuffer, now, sleep, withTimeout } from './measurement.js';

export const REQUEST_TIMEOUT_MS = 60_000;
export const CLIENT_INFO = { name: 'mcp-workspace-resources-bench', version: '0.1.0' };

/** Run `fn(item, workerIndex)` over items with `concurrency` in flight; per-item latency in ms. */
export async function runReads(items, concurrency, fn) {
	const latencies = new Array(items.length);
	const results = new Array(items.length);
	let next = 0;
	let firstError = null;
	let errors = 0;
	const t0 = now();
	const workers = Array.from({ length: Math.min(concurrency, items.length) }, async (_, w) => {
		while (next < items.length) {
			const i = next++;
			const s = now();
			try {
				results[i] = await fn(items[i], w);
			} catch (err) {
				errors++;
				firstError ??= err;
				results[i] = undefined;
			}
			latencies[i] = now() - s;
		}
	});
	await Promise.all(workers);
	const wallMs = now() - t0;
	return { latencies, results, wallMs, errors, firstError, readsPerSec: items.length / (wallMs / 1000) };
}

// ---------------------------------------------------------------------------------------------
// Floor

export const floor = {
	name: 'floor (fs)',
	async enumerate(root) {
		return walkFiles(root);
	},
	read(absPath) {
		return fsp.readFile(absPath, 'utf8');
	},
	readBinary(absPath) {
		return fsp.readFile(absPath);
	},
};

// ---------------------------------------------------------------------------------------------
// Shared MCP client plumbing

class McpContender {
	constructor(name) {
		this.name = name;
		this.client = null;
		this.transport = null;
		this.pid = null;
		this.stderr = new TailBuffer();
		this.closed = false;
		this.connectionError = null;
	}

	newClient() {
		const client = new Client(CLIENT_INFO, { capabilities: {} });
		client.onerror = err => {
			this.connectionError ??= err;
		};
		return client;
	}

	ping() {
		return this.client.ping({ timeout: REQUEST_TIMEOUT_MS });
	}

	describeFailure(err) {
		const tail = this.stderr.tail(1500).trim();
		const alive = this.pid ? isAlive(this.pid) : null;
		return `${err?.message ?? err}${alive === false ? ' (server process has exited)' : ''}${tail ? `\n--- ${this.name} stderr (tail) ---\n${tail}` : ''}`;
	}
}

// ---------------------------------------------------------------------------------------------
// @modelcontextprotocol/server-filesystem (stdio, tools only)

export class PeerFilesystem extends McpContender {
	constructor({ repoRoot, root }) {
		super('server-filesystem (stdio)');
		this.repoRoot = repoRoot;
		this.root = root;
		this.listingTool = null;
		this.readTool = null;
		this.tools = [];
	}

	async start() {
		const entry = path.join(this.repoRoot, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
		this.transport = new StdioClientTransport({
			command: process.execPath,
			args: [entry, this.root],
			stderr: 'pipe',
			cwd: this.repoRoot,
		});
		this.stderr.attach(this.transport.stderr);
		this.client = this.newClient();
		const t0 = now();
		await withTimeout(this.client.connect(this.transport), 30_000, `${this.name} connect`);
		this.pid = this.transport.pid;
		this.untrack = killPidAtExit(this.pid);
		this.connectMs = now() - t0;
		const { tools } = await this.client.listTools();
		this.tools = tools.map(t => t.name);
		this.readTool = this.tools.includes('read_text_file') ? 'read_text_file' : 'read_file';
		return this;
	}

	async callText(name, args) {
		const res = await this.client.callTool({ name, arguments: args }, undefined, { timeout: REQUEST_TIMEOUT_MS });
		const text = res.content?.find(c => c.type === 'text')?.text;
		if (res.isError) throw new Error(`${name} failed: ${text ?? JSON.stringify(res.content)}`);
		if (typeof text !== 'string') throw new Error(`${name}: no text content`);
		return text;
	}

	/** Listing strategies that yield every file path; the bench times each and keeps the fastest. */
	listingStrategies() {
		const root = this.root;
		const strategies = {};
		if (this.tools.includes('directory_tree')) {
			strategies.directory_tree = async () => {
				const tree = JSON.parse(await this.callText('directory_tree', { path: root }));
				const out = [];
				const visit = (nodes, dir) => {
					for (const n of nodes) {
						const p = path.join(dir, n.name);
						if (n.type === 'directory') visit(n.children ?? [], p);
						else out.push(p);
					}
				};
				visit(tree, root);
				return out;
			};
		}
		if (this.tools.includes('search_files')) {
			// Returns files and directories alike; a client cannot tell them apart without more calls,
			// but every file path is in there.
			strategies['search_files **/*'] = async () => {
				const text = await this.callText('search_files', { path: root, pattern: '**/*' });
				return text === 'No matches found' ? [] : text.split('\n');
			};
		}
		if (this.tools.includes('list_directory')) {
			// Client-driven walk: one list_directory call per directory, 8 in flight.
			strategies['list_directory walk'] = async () => {
				const out = [];
				const queue = [root];
				let active = 0;
				await new Promise((resolve, reject) => {
					const pump = () => {
						if (queue.length === 0 && active === 0) return resolve();
						while (active < 8 && queue.length > 0) {
							const dir = queue.shift();
							active++;
							this.callText('list_directory', { path: dir }).then(text => {
								for (const line of text.split('\n')) {
									const m = line.match(/^\[(FILE|DIR)\] (.*)$/);
									if (!m) continue;
									const p = path.join(dir, m[2]);
									if (m[1] === 'DIR') queue.push(p);
									else out.push(p);
								}
								active--;
								pump();
							}, reject);
						}
					};
					pump();
				});
				return out;
			};
		}
		return strategies;
	}

	read(absPath) {
		return this.callText(this.readTool, { path: absPath });
	}

	async readBinary(absPath) {
		const res = await this.client.callTool({ name: 'read_media_file', arguments: { path: absPath } }, undefined, { timeout: REQUEST_TIMEOUT_MS });
		if (res.isError) throw new Error(`read_media_file failed: ${JSON.stringify(res.content).slice(0, 300)}`);
		const c = res.content?.[0];
		const b64 = c?.data ?? c?.resource?.blob;
		if (typeof b64 !== 'string') throw new Error('read_media_file: no base64 data');
		return Buffer.from(b64, 'base64');
	}

	async close() {
		if (this.closed) return;
		this.closed = true;
		try {
			await this.client?.close();
		} finally {
			this.untrack?.();
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Our server: node dist/cli.js serve

/** contents[0] as text; counts text files that came back as base64 blobs. */
export function extractText(res, uri, stats) {
	const c = res?.contents?.[0];
	if (!c) throw new Error(`read ${uri}: empty contents`);
	if (typeof c.text === 'string') return c.text;
	if (typeof c.blob === 'string') {
		stats.textAsBlob++;
		return Buffer.from(c.blob, 'base64').toString('utf8');
	}
	throw new Error(`read ${uri}: neither text nor blob`);
}

export function extractBinary(res, uri, stats) {
	const c = res?.contents?.[0];
	if (!c) throw new Error(`read ${uri}: empty contents`);
	if (typeof c.blob === 'string') return Buffer.from(c.blob, 'base64');
	if (typeof c.text === 'string') {
		stats.binaryAsText++;
		return Buffer.from(c.text, 'utf8');
	}
	throw new Error(`read ${uri}: neither text nor blob`);
}

export class OursBase extends McpContender {
	constructor(name, { repoRoot, root, home, cli }) {
		super(name);
		this.repoRoot = repoRoot;
		this.root = root;
		this.home = home;
		this.cli = cli ?? path.join(repoRoot, 'dist/cli.js');
		this.readStats = { textAsBlob: 0, binaryAsText: 0 };
	}

	/** All pages of resources/list. Returns { files, otherUris, pages, pageMs }. */
	async enumerate(timeout = REQUEST_TIMEOUT_MS) {
		const files = [];
		const otherUris = [];
		let cursor;
		let pages = 0;
		const seen = new Set();
		const pageMs = [];
		do {
			const t = now();
			const res = await this.listPage(cursor, timeout);
			pageMs.push(now() - t);
			pages++;
			for (const r of res.resources) {
				if (r.uri.startsWith('file://')) files.push(fileURLToPath(r.uri));
				else otherUris.push(r.uri);
			}
			cursor = res.nextCursor;
			if (cursor !== undefined) {
				if (seen.has(cursor)) throw new Error(`resources/list returned the same nextCursor twice (${cursor}) after ${pages} pages`);
				seen.add(cursor);
			}
			if (pages > 1_000_000) throw new Error('resources/list: runaway pagination');
		} while (cursor !== undefined);
		return { files, otherUris, pages, pageMs };
	}

	async read(absPath, timeout = REQUEST_TIMEOUT_MS) {
		const uri = pathToFileURL(absPath).href;
		const res = await this.client.readResource({ uri }, { timeout });
		return extractText(res, uri, this.readStats);
	}

	async readBinary(absPath) {
		const uri = pathToFileURL(absPath).href;
		const res = await this.client.readResource({ uri }, { timeout: REQUEST_TIMEOUT_MS });
		return extractBinary(res, uri, this.readStats);
	}

	serverArgs(extra) {
		return [this.cli, 'serve', '--root', this.root, ...extra];
	}

	env() {
		return { ...process.env, MCP_WORKSPACE_RESOURCES_HOME: this.home };
	}

	/** One resources/list page (the first when `cursor` is undefined). */
	listPage(cursor, timeout = REQUEST_TIMEOUT_MS) {
		return this.client.listResources(cursor ? { cursor } : undefined, { timeout });
	}

	/** Time until the first resources/list page arrives (server may still be indexing). */
	firstPage() {
		return this.listPage(undefined);
	}
}

export class OursStdio extends OursBase {
	constructor(opts) {
		super('ours (stdio)', opts);
	}

	async start() {
		this.t0 = now();
		this.transport = new StdioClientTransport({
			command: process.execPath,
			args: this.serverArgs(['--stdio']),
			env: { MCP_WORKSPACE_RESOURCES_HOME: this.home },
			stderr: 'pipe',
			cwd: this.repoRoot,
		});
		this.stderr.attach(this.transport.stderr);
		this.client = this.newClient();
		await withTimeout(this.client.connect(this.transport), 30_000, `${this.name} connect`);
		this.pid = this.transport.pid;
		this.untrack = killPidAtExit(this.pid);
		this.connectMs = now() - this.t0;
		return this;
	}

	async close() {
		if (this.closed) return { exitedCleanly: true };
		this.closed = true;
		const pid = this.pid;
		const t0 = now();
		try {
			await this.client?.close();
		} finally {
			this.untrack?.();
		}
		// The SDK ends stdin, waits 2 s, then SIGTERM, then SIGKILL.
		return { closeMs: now() - t0, exitedCleanly: !isAlive(pid) };
	}
}

export class OursHttp extends OursBase {
	constructor(opts) {
		super('ours (http)', opts);
		this.child = null;
		this.url = null;
		this.token = null;
		this.extraClients = [];
	}

	async start() {
		this.t0 = now();
		const child = spawn(process.execPath, this.serverArgs(['--http']), {
			cwd: this.repoRoot,
			env: this.env(),
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		this.child = child;
		this.pid = child.pid;
		this.untrack = killPidAtExit(this.pid);
		this.stderr.attach(child.stderr);
		this.exit = new Promise(resolve => child.once('exit', (code, signal) => resolve({ code, signal })));
		const firstLine = await withTimeout(new Promise((resolve, reject) => {
			let buf = '';
			child.stdout.setEncoding('utf8');
			const onData = chunk => {
				buf += chunk;
				const nl = buf.indexOf('\n');
				if (nl >= 0) {
					child.stdout.off('data', onData);
					// keep draining stdout so the pipe never fills
					child.stdout.on('data', () => {});
					resolve(buf.slice(0, nl));
				}
			};
			child.stdout.on('data', onData);
			child.once('exit', (code, signal) => reject(new Error(`server exited before printing its URL (code ${code}, signal ${signal})`)));
			child.once('error', reject);
		}), 30_000, `${this.name}: waiting for the URL line on stdout`);
		let info;
		try {
			info = JSON.parse(firstLine);
		} catch {
			throw new Error(`first stdout line is not JSON: ${JSON.stringify(firstLine.slice(0, 200))}`);
		}
		if (!info.url || !info.token) throw new Error(`first stdout line lacks url/token: ${firstLine.slice(0, 200)}`);
		this.url = info.url;
		this.token = info.token;
		this.readyMs = now() - this.t0;
		this.client = await this.connectClient();
		this.connectMs = now() - this.t0;
		return this;
	}

	async connectClient() {
		const transport = new StreamableHTTPClientTransport(new URL(this.url), {
			requestInit: { headers: { Authorization: `Bearer ${this.token}` } },
		});
		const client = this.newClient();
		await withTimeout(client.connect(transport), 30_000, `${this.name} connect`);
		return client;
	}

	/** Extra sessions for the "8 sessions" measurement. */
	async openSessions(n) {
		const clients = [];
		for (let i = 0; i < n; i++) clients.push(await this.connectClient());
		this.extraClients.push(...clients);
		return clients;
	}

	async closeSessions(clients) {
		for (const c of clients) {
			await c.transport?.terminateSession?.().catch(() => {}); // DELETE /mcp, frees the session
			await c.close().catch(() => {});
			this.extraClients = this.extraClients.filter(x => x !== c);
		}
	}

	async readWith(client, absPath) {
		const uri = pathToFileURL(absPath).href;
		const res = await client.readResource({ uri }, { timeout: REQUEST_TIMEOUT_MS });
		return extractText(res, uri, this.readStats);
	}

	async close() {
		if (this.closed) return { exitedCleanly: true };
		this.closed = true;
		for (const c of this.extraClients) await c.close().catch(() => {});
		try {
			// terminateSession sends DELETE for the session; ignore if unsupported
			await this.client?.transport?.terminateSession?.().catch(() => {});
			await this.client?.close();
		} catch {
			// the server is about to be stopped anyway
		}
		const t0 = now();
		let exitedCleanly = false;
		let exitInfo = null;
		if (this.child && this.child.exitCode === null && this.child.signalCode === null) {
			this.child.kill('SIGTERM');
			exitInfo = await Promise.race([this.exit, sleep(5000).then(() => null)]);
			if (!exitInfo) {
				this.child.kill('SIGKILL');
				exitInfo = await this.exit;
			} else {
				exitedCleanly = true;
			}
		} else {
			exitInfo = await this.exit;
		}
		this.untrack?.();
		return { closeMs: now() - t0, exitedCleanly, exit: exitInfo };
	}
}
