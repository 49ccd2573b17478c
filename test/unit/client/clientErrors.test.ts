import * as assert from 'node:assert/strict';
import { describeFailure, shortMessage } from '../../../src/client/clientErrors';

describe('client errors, in words for a log line or a terminal', () => {
	it('finds a refused connection under the wrappers (SDK error, then fetch failed, then the socket error)', () => {
		const socket = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:45999'), { code: 'ECONNREFUSED' });
		const fetchFailed = new TypeError('fetch failed', { cause: socket });
		const sdk = new Error('Version negotiation probe failed: fetch failed', { cause: fetchFailed });
		assert.equal(describeFailure(sdk, ''), 'connection refused (is the server running?)');
	});

	it('keeps a reply that is not MCP to one line: the schema\'s JSON dump is named, not printed', () => {
		const dump = JSON.stringify([{ code: 'invalid_union', errors: [], path: [], message: 'Invalid input' }], null, 2);
		assert.equal(describeFailure(new Error(`Version negotiation probe failed: ${dump}`), ''), 'Version negotiation probe failed: the reply is not valid MCP');
		assert.equal(shortMessage(new Error(`Invalid result for resources/list: ${dump}`)), 'Invalid result for resources/list: the reply is not valid MCP');
		assert.equal(shortMessage(new Error(dump)), 'a reply that is not valid MCP');
		assert.equal(shortMessage(new Error('first line\nsecond line')), 'first line');
	});
});
