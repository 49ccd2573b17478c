// Shared helpers for the suite that runs inside a real VS Code extension host.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
	McpError,
	ResourceListChangedNotificationSchema,
	ResourceUpdatedNotificationSchema,
	type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import { HeardNotifications } from '../helpers/heardNotifications';

export const EXTENSION_ID = 'mcp-workspace-resources.mcp-workspace-resources';
/** Not found is -32602 with data.uri on every revision (SDK v2; the 2026-07-28 revision requires it). */
export const RESOURCE_NOT_FOUND = -32602;

export interface LockFile {
	url: string;
	token: string;
	workspaceFolders: string[];
	pid: number;
	version: string;
	host: string;
	startedAt: string;
}

/** Polls `predicate` until it returns a truthy value (returned), or fails after `timeoutMs`. */
export async function waitFor<T>(
	predicate: () => T | Promise<T>,
	message: string,
	timeoutMs = 10_000,
	intervalMs = 50,
): Promise<NonNullable<T>> {
	const deadline = Date.now() + timeoutMs;
	let lastError: unknown;
	for (;;) {
		try {
			const value = await predicate();
			if (value) {
				return value as NonNullable<T>;
			}
			lastError = undefined;
		} catch (err) {
			lastError = err;
		}
		if (Date.now() >= deadline) {
			const cause = lastError ? ` (last error: ${lastError instanceof Error ? lastError.message : String(lastError)})` : '';
			throw new Error(`Timed out after ${timeoutMs} ms waiting for: ${message}${cause}`);
		}
		await new Promise(resolve => setTimeout(resolve, intervalMs));
	}
}

export function workspaceRoot(): string {
	const folder = vscode.workspace.workspaceFolders?.[0];
	assert.ok(folder, 'the suite needs a folder open');
	return folder.uri.fsPath;
}

export function absPath(rel: string): string {
	return path.join(workspaceRoot(), ...rel.split('/'));
}

export function vscodeUri(rel: string): vscode.Uri {
	return vscode.Uri.file(absPath(rel));
}

/** The MCP resource URI of a workspace file, as the contract defines it. */
export function resourceUri(rel: string): string {
	return pathToFileURL(absPath(rel)).href;
}

export function discoveryHome(): string {
	const fromEnv = process.env.MCP_WORKSPACE_RESOURCES_HOME;
	return fromEnv && fromEnv.trim() !== '' ? path.resolve(fromEnv) : path.join(os.homedir(), '.mcp-workspace-resources');
}

/** The lock file of the server in this extension host (the tests share its process). */
export function lockFilePath(): string {
	return path.join(discoveryHome(), 'servers', `${process.pid}.json`);
}

export function readLockFile(): LockFile | undefined {
	try {
		return JSON.parse(fs.readFileSync(lockFilePath(), 'utf8')) as LockFile;
	} catch {
		return undefined;
	}
}

/** Activates the extension and waits for its lock file. */
export async function ensureServer(timeoutMs = 30_000): Promise<LockFile> {
	const ext = vscode.extensions.getExtension(EXTENSION_ID);
	assert.ok(ext, `extension ${EXTENSION_ID} is not installed`);
	await ext.activate();
	return waitFor(readLockFile, `lock file ${lockFilePath()}`, timeoutMs);
}

/** An SDK client plus everything the server notified it of. */
export class TestClient {
	/** When each of `updated` arrived (performance.now()). */
	readonly updatedAt: number[] = [];
	private readonly heard = new HeardNotifications({
		detail: () => `updated so far: ${JSON.stringify(this.updated.slice(-10))}, list_changed: ${this.listChanged}`,
		timeoutMs: 10_000,
	});

	private constructor(readonly client: Client, readonly info: LockFile) {
		client.setNotificationHandler(ResourceUpdatedNotificationSchema, notification => {
			this.updatedAt.push(performance.now());
			this.heard.updated(notification.params.uri);
		});
		client.setNotificationHandler(ResourceListChangedNotificationSchema, () => this.heard.listChanged());
	}

	/** URIs of the `resources/updated` notifications, in order. */
	get updated(): readonly string[] {
		return this.heard.updates;
	}

	/** How many `resources/list_changed` notifications arrived. */
	get listChanged(): number {
		return this.heard.listChanges;
	}

	static async connect(info?: LockFile): Promise<TestClient> {
		const lock = info ?? await ensureServer();
		const client = new Client({ name: 'vscode-suite', version: '0.0.0' });
		const transport = new StreamableHTTPClientTransport(new URL(lock.url), {
			requestInit: { headers: { Authorization: `Bearer ${lock.token}` } },
		});
		await client.connect(transport);
		return new TestClient(client, lock);
	}

	/** Resolves once `condition` holds, re-checked on every notification; fails after `timeoutMs`. */
	waitForNotification(condition: () => boolean, message: string, timeoutMs?: number): Promise<void> {
		return this.heard.until(condition, `notification: ${message}`, timeoutMs);
	}

	/** Marks the current notification counts; `since.updated(uri)` waits for a newer one. */
	mark(): { updated(uri: string, timeoutMs?: number): Promise<void>; listChanged(timeoutMs?: number): Promise<void> } {
		const updatedAt = this.updated.length;
		const listChangedAt = this.listChanged;
		return {
			updated: (uri, timeoutMs) => this.waitForNotification(
				() => this.updated.slice(updatedAt).includes(uri), `resources/updated for ${uri}`, timeoutMs),
			listChanged: timeoutMs => this.waitForNotification(
				() => this.listChanged > listChangedAt, 'resources/list_changed', timeoutMs),
		};
	}

	/** Every resource, following `nextCursor`; also returns how many pages it took. */
	async listAll(): Promise<{ resources: Resource[]; pages: number }> {
		const resources: Resource[] = [];
		let cursor: string | undefined;
		let pages = 0;
		do {
			const page = await this.client.listResources(cursor ? { cursor } : {});
			pages++;
			resources.push(...page.resources);
			cursor = page.nextCursor;
			assert.ok(pages < 1000, 'pagination does not end');
		} while (cursor);
		return { resources, pages };
	}

	async listedUris(): Promise<Set<string>> {
		return new Set((await this.listAll()).resources.map(r => r.uri));
	}

	async readText(uri: string): Promise<string> {
		const result = await this.client.readResource({ uri });
		assert.equal(result.contents.length, 1, `one content item for ${uri}`);
		const content = result.contents[0];
		assert.ok('text' in content && typeof content.text === 'string', `${uri} is read as text`);
		return content.text;
	}

	async subscribe(uri: string): Promise<void> {
		await this.client.subscribeResource({ uri });
	}

	async close(): Promise<void> {
		await this.client.close().catch(() => undefined);
	}
}

/** Asserts that `promise` rejects with an MCP error of `code`. */
export async function assertMcpError(promise: Promise<unknown>, code: number, what: string): Promise<McpError> {
	try {
		await promise;
	} catch (err) {
		assert.ok(err instanceof McpError, `${what}: expected an McpError, got ${String(err)}`);
		assert.equal(err.code, code, `${what}: error code (message: ${err.message})`);
		return err;
	}
	assert.fail(`${what}: expected MCP error ${code}, but the request succeeded`);
}

/**
 * Raw HTTP POST of an MCP initialize request (node:http, so Host can be forged), for checks the
 * SDK client cannot make. Returns the status code.
 */
export function rawInitialize(url: string, headers: Record<string, string>): Promise<number> {
	const body = JSON.stringify({
		jsonrpc: '2.0', id: 1, method: 'initialize',
		params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
	});
	return new Promise((resolve, reject) => {
		const req = http.request(url, {
			method: 'POST',
			headers: {
				'Content-Type': 'application/json',
				Accept: 'application/json, text/event-stream',
				'Content-Length': Buffer.byteLength(body),
				...headers,
			},
			timeout: 10_000,
		}, res => {
			res.resume();
			resolve(res.statusCode ?? 0);
			res.destroy();
		});
		req.on('timeout', () => req.destroy(new Error(`no answer from ${url}`)));
		req.on('error', reject);
		req.end(body);
	});
}

/** Closes every editor without saving and reverts dirty documents. */
export async function closeAllEditors(): Promise<void> {
	await vscode.commands.executeCommand('workbench.action.files.revert').then(undefined, () => undefined);
	await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

export async function restoreFile(rel: string, content: string): Promise<void> {
	await vscode.workspace.fs.writeFile(vscodeUri(rel), Buffer.from(content));
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
	const server = net.createServer();
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as net.AddressInfo;
	await new Promise<void>(resolve => server.close(() => resolve()));
	return port;
}

