import * as assert from 'node:assert/strict';
import { RESOURCE_LIMITS } from '../../src/picker/listingGuard';
import { ResourceListing } from '../../src/picker/resourceListing';
import { heapAfterGc } from '../helpers/heap';
import { HostileServer, someResources, startHostileServer } from '../unit/picker/hostileServer';

/**
 * The attack measured in issue 17 (1,000 new items a page, forever, grew the extension host by
 * 262 MB in 45 s), with a fresh cursor each time so no paging rule stops it: the default caps
 * must, and what the picker keeps must stay within the byte cap.
 */
describe('picker: a server that pages forever', function () {
	this.timeout(300_000);
	let hostile: HostileServer;

	afterEach(async () => {
		await hostile?.close();
	});

	it(`stops at ${RESOURCE_LIMITS.maxItems.toLocaleString('en-US')} resources with the default caps, and the heap holds no more than the byte cap`, async () => {
		let page = 0;
		hostile = await startHostileServer({ list: () => ({ resources: someResources('flood', 1000 * page, 1000), nextCursor: `c${++page}` }) });
		const before = heapAfterGc();
		const resources = new ResourceListing(hostile.connect());
		try {
			await resources.load();
			assert.equal(resources.size, RESOURCE_LIMITS.maxItems);
			assert.equal(hostile.calls.get('resources/list'), RESOURCE_LIMITS.maxItems / 1000 + 1, 'the page past the cap is the last one asked for');
			assert.match(resources.state.kind === 'complete' ? resources.state.notice ?? '' : '', /the picker keeps no more per server/);
			const grown = heapAfterGc() - before;
			assert.ok(grown < RESOURCE_LIMITS.maxBytes, `the heap grew by ${Math.round(grown / 1024 / 1024)} MB`);
		} finally {
			resources.dispose();
		}
	});
});
