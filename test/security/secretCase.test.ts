import * as assert from 'node:assert/strict';
import { fileUri } from '../../src/core/uriGuard';
import { createFixture, Fixture } from '../helpers/fixtureWorkspace';
import { ConnectedClient, connectInMemory, createTestServer, errorOf, listAll, TestServer } from '../helpers/harness';

/**
 * Secret names in other cases: on a case-insensitive file system `.ENV` is `.env`, and on any
 * system `ID_RSA` holds the same key. Each must be hidden from list, read and completion, for
 * built-in patterns and for the user's own.
 */
const SHOUTED_SECRETS = [
	'.ENV', 'ID_RSA', 'keys/Server.PEM', 'CREDENTIALS.JSON', '.Env.Local', '.SSH/config', '.AWS/credentials', '.NPMRC',
	'conf/Vault.TOKEN', // the user's pattern `*.token`
];

describe('secret patterns ignore case', () => {
	let fx: Fixture;
	let server: TestServer;
	let conn: ConnectedClient;

	before(async () => {
		fx = createFixture();
		for (const rel of SHOUTED_SECRETS) {
			fx.write(rel, `secret of ${rel}\n`);
		}
		fx.write('conf/settings.txt', 'served\n');
		server = createTestServer([fx.root], { settings: { secrets: ['*.token'] } });
		await server.files.ready();
		conn = await connectInMemory(server.registry, server.log);
	});
	after(async () => {
		await conn.close();
		server.dispose();
		fx.dispose();
	});

	it('lists none of them (and still lists a neighbour)', async () => {
		const uris = new Set((await listAll(conn.client)).map(r => r.uri));
		assert.ok(uris.has(fileUri(fx.file('conf/settings.txt'))), 'the neighbour is listed');
		for (const rel of SHOUTED_SECRETS) {
			assert.ok(!uris.has(fileUri(fx.file(rel))), `${rel} is listed`);
		}
	});

	for (const rel of SHOUTED_SECRETS) {
		it(`refuses to read ${rel}`, async () => {
			const err = await errorOf(conn.client.readResource({ uri: fileUri(fx.file(rel)) }));
			assert.equal(err.code, -32602);
			assert.doesNotMatch(err.message, /secret of/);
		});
	}

	it('offers none of them to completion', async () => {
		for (const rel of SHOUTED_SECRETS) {
			for (const value of [fx.file(rel).slice(1), rel.slice(0, 3), rel.split('/').pop()!.slice(0, 4)]) {
				const result = await conn.client.complete({ ref: { type: 'ref/resource', uri: 'file:///{+path}' }, argument: { name: 'path', value } });
				const leaked = result.completion.values.filter(v => SHOUTED_SECRETS.some(s => v.endsWith(s)));
				assert.deepEqual(leaked, [], `completing "${value}"`);
			}
		}
	});
});
