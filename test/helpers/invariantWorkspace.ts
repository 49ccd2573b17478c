import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bridgeEraClients, EraClient, httpEraClients, stdioEraClients, walkList } from './eraClients';
import { createFixture, Fixture } from './fixtureWorkspace';
import { startHost } from './headlessHost';

const EXTRA_SERVED = ['odd/100% done.md', 'odd/Ωmega ñ.txt', 'odd/a+b@c~d.txt'];
const EXTRA_HIDDEN = ['deploy/ID_RSA', 'keys/Server.KEY', '.Env.Local', 'Secrets/.NPMRC', 'CERTS/Prod.PEM'];
/** Workspace-relative files the server serves (the fixture's and a few more). */
export const SERVED = ['README.md', 'src/index.ts', 'src/ünïcödé 文件.txt', 'pkg/keep.log', 'link-inside.md', 'images/pixel.png',
	'data/latin1.txt', ...EXTRA_SERVED];
/** Files that exist (or that links lead to) but must never be served, listed, completed or notified. */
export const HIDDEN = ['.env', 'config/.env.production', 'certs/server.pem', '.npmrc', '.git/config', 'build/out.js', 'debug.log',
	'pkg/generated/gen.ts', 'link-outside-file', 'link-outside-dir/passwd', 'link-to-secret', ...EXTRA_HIDDEN];

/**
 * The fixture workspace with a few more names (percent signs, non-ASCII, secrets in upper and
 * mixed case) in a real git repository, served by the headless host as users run it, in both
 * eras over loopback HTTP (`serve --http`), over `serve --stdio` and through the stdio bridge to
 * the HTTP host; every client has listed once
 * (so the index is built).
 */
export interface InvariantWorkspace {
	readonly fx: Fixture;
	readonly clients: readonly EraClient[];
	dispose(): Promise<void>;
}

export async function startInvariantWorkspace(): Promise<InvariantWorkspace> {
	const fx = createFixture();
	for (const rel of [...EXTRA_SERVED, ...EXTRA_HIDDEN]) {
		fx.write(rel, `${rel}\nsecond line\n`);
	}
	execFileSync('git', ['-c', 'init.defaultBranch=main', 'init', '-q'], { cwd: fx.root, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
	const home = mkdtempSync(path.join(os.tmpdir(), 'mwr-invariants-home-'));
	const host = await startHost(fx.root, home);
	const clients = [...await httpEraClients(host.url, host.token), ...await stdioEraClients(fx.root, home), ...await bridgeEraClients(fx.root, home)];
	for (const c of clients) {
		await walkList(c);
	}
	return {
		fx, clients,
		dispose: async () => {
			await Promise.all(clients.map(c => c.close()));
			await host.stop();
			fx.dispose();
			rmSync(home, { recursive: true, force: true });
		},
	};
}
