import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import { nullLogger } from '../../src/common/logger';
import { LockFileContent, removeLockFile, writeLockFile } from '../../src/mcp/lockFile';

/**
 * What the two stand-ins for a VS Code window share (legacyWindow.ts speaks only 2025,
 * modernWindow.ts only 2026-07-28): a loopback server with a bearer token that records each
 * request's method, serves a fixed set of resources in pages, and can advertise itself in a lock file.
 */
export interface StandInWindow {
	readonly url: string;
	readonly token: string;
	/** Methods of the requests that reached it, in order. */
	readonly methods: string[];
	updated(uri: string): void;
	listChanged(): void;
	/** Writes a lock file for `folders` in `home` under this process's pid, as a window does. */
	advertise(home: string, folders: string[]): Promise<void>;
	close(): Promise<void>;
}

export interface StandInWindowOptions {
	/** uri -> text, listed in this order. */
	readonly resources: ReadonlyMap<string, string>;
	/** Resources per `resources/list` page (2 unless given). */
	readonly pageSize?: number;
	/** URIs it refuses: left out of pages, not found on read, never subscribed or notified. */
	readonly refused?: readonly string[];
}

/** One `resources/list` page without the URIs `refused` holds now: the cursor is the index of the page's first resource. */
export function resourcePage(options: StandInWindowOptions, refused: ReadonlySet<string>, cursor: string | undefined): { resources: { uri: string; name: string }[]; nextCursor?: string } {
	const uris = [...options.resources.keys()];
	const pageSize = options.pageSize ?? 2;
	const start = cursor ? Number(cursor) : 0;
	const page = uris.slice(start, start + pageSize).filter(u => !refused.has(u));
	const next = start + pageSize < uris.length ? String(start + pageSize) : undefined;
	return { resources: page.map(uri => ({ uri, name: uri.split('/').pop()! })), ...(next ? { nextCursor: next } : {}) };
}

/** An HTTP server on 127.0.0.1 (a free port); `close` cuts open streams, then waits for the server to close. */
export async function listenOnLoopback(serve: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>): Promise<{ url: string; close(): Promise<void> }> {
	const server = http.createServer((req, res) => void serve(req, res).catch(() => res.destroy()));
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>(resolve => server.close(() => resolve()));
		},
	};
}

/** The window's lock file: written by `advertise`, removed by `withdraw` (nothing to do if never written). */
export function lockFileAdvert(url: string, token: string): { advertise(home: string, folders: string[]): Promise<void>; withdraw(): Promise<void> } {
	let advertisedIn: string | undefined;
	return {
		advertise: async (home, folders) => {
			const lock: LockFileContent = {
				url, token, workspaceFolders: folders, pid: process.pid, version: '0', host: 'vscode', startedAt: new Date().toISOString(),
			};
			await writeLockFile(lock, nullLogger, home);
			advertisedIn = home;
		},
		withdraw: async () => {
			if (advertisedIn) {
				await removeLockFile(process.pid, advertisedIn);
			}
		},
	};
}

/** A lock file's content for `folders`, as a window on them writes it (`extra` overrides any field). */
export function lockContent(folders: string[], extra: Partial<LockFileContent> = {}): LockFileContent {
	return { url: 'http://127.0.0.1:1/mcp', token: 't', workspaceFolders: folders, pid: 1, version: '0', host: 'vscode', startedAt: '2026-01-01T00:00:00Z', ...extra };
}
