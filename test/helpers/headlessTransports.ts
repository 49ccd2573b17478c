import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bridgeEraClients, EraClient, httpEraClients, stdioEraClients } from './eraClients';
import { Host, startHost } from './headlessHost';

/** SDK v2 clients of both eras on every way a user reaches the headless host, over one folder. */
export interface HeadlessTransports {
	/** `http modern`, `http legacy`, `stdio modern`, `stdio legacy`, `bridge modern`, `bridge legacy`. */
	readonly clients: readonly EraClient[];
	close(): Promise<void>;
}

/**
 * `serve --http` with clients of both eras, `bridge --workspace` (which finds that host by its lock
 * file) with both, and `serve --stdio` with both (one process each, lock files in a home of their own).
 */
export async function headlessTransports(root: string, options: readonly string[] = []): Promise<HeadlessTransports> {
	const home = mkdtempSync(path.join(os.tmpdir(), 'mwr-transports-'));
	const stdioHome = mkdtempSync(path.join(os.tmpdir(), 'mwr-transports-stdio-'));
	const clients: EraClient[] = [];
	let host: Host | undefined;
	const close = async () => {
		await Promise.all(clients.map(c => c.close().catch(() => undefined)));
		await host?.stop();
		rmSync(home, { recursive: true, force: true });
		rmSync(stdioHome, { recursive: true, force: true });
	};
	try {
		host = await startHost(root, home, options);
		clients.push(...await httpEraClients(host.url, host.token));
		clients.push(...await stdioEraClients(root, stdioHome, options));
		clients.push(...await bridgeEraClients(root, home));
	} catch (err) {
		await close();
		throw err;
	}
	return { clients, close };
}
