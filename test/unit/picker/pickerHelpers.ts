import { nullLogger } from '../../../src/common/logger';
import { HttpHost } from '../../../src/mcp/http/httpHost';
import { ViewNode } from '../../../src/picker/pickerNodes';
import { ServerConnection } from '../../../src/picker/serverConnection';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { createTestServer, TestServer } from '../../helpers/harness';

/** Rows as short strings: `name/` for a folder, the label of a resource, `more(n)`, else the kind. */
export function rowLabels(nodes: readonly ViewNode[]): string[] {
	return nodes.map(n => n.kind === 'folder' ? `${n.name}/` : n.kind === 'resource' ? n.label : n.kind === 'more' ? `more(${n.remaining})` : n.kind);
}

/** The tree the picker tests browse: many/f00.txt … f24.txt (more than a page) and src/deep/er/x.ts. */
export function writeTreeFiles(fx: Fixture): void {
	for (let i = 0; i < 25; i++) {
		fx.write(`many/f${String(i).padStart(2, '0')}.txt`, `file ${i}\n`);
	}
	fx.write('src/deep/er/x.ts', 'x\n');
}

/** A real server over loopback HTTP (pages of 7) on the tree of `writeTreeFiles`, and the picker's connection to it. */
export interface ListedServer {
	readonly fx: Fixture;
	readonly server: TestServer;
	readonly connection: ServerConnection;
	dispose(): Promise<void>;
}

export async function startListedServer(): Promise<ListedServer> {
	const fx = createFixture();
	writeTreeFiles(fx);
	const server = createTestServer([fx.root]);
	const host = new HttpHost({ registry: server.registry, log: server.log, pageSize: 7 });
	const info = await host.start();
	const connection = new ServerConnection('t', 'Test', { resolve: async () => ({ kind: 'http', url: info.url, headers: { Authorization: `Bearer ${info.token}` } }) }, { log: nullLogger });
	return {
		fx, server, connection,
		async dispose() {
			connection.dispose();
			await host.stop();
			host.dispose();
			server.dispose();
			fx.dispose();
		},
	};
}
