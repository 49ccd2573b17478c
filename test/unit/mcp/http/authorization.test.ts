import * as assert from 'node:assert/strict';
import { bearerAuthorization } from '../../../../src/mcp/http/authorization';
import { HttpHost } from '../../../../src/mcp/http/httpHost';
import { createFixture } from '../../../helpers/fixtureWorkspace';
import { createTestServer } from '../../../helpers/harness';

const initialize = JSON.stringify({
	jsonrpc: '2.0', id: 1, method: 'initialize',
	params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'auth-test', version: '1' } },
});

describe('bearer authorization header', () => {
	it('is the Authorization header with the Bearer scheme and the token as given', () => {
		assert.deepEqual(bearerAuthorization('abc-123_XYZ'), { Authorization: 'Bearer abc-123_XYZ' });
	});

	it('is what the HTTP host accepts, and a wrong token in it is refused', async () => {
		const fx = createFixture();
		const server = createTestServer([fx.root]);
		const host = new HttpHost({ registry: server.registry, log: server.log });
		try {
			const { url, token } = await host.start();
			const post = (headers: Record<string, string>) => fetch(url, {
				method: 'POST', body: initialize,
				headers: { ...headers, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
			});
			const accepted = await post(bearerAuthorization(token));
			await accepted.body?.cancel();
			assert.equal(accepted.status, 200);
			const refused = await post(bearerAuthorization(`${token}x`));
			await refused.body?.cancel();
			assert.equal(refused.status, 401);
		} finally {
			await host.stop();
			host.dispose();
			server.dispose();
			fx.dispose();
		}
	});
});
