import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { fileUri } from '../../../src/core/uriGuard';
import { ServerRunner } from '../../../src/mcp/serverRunner';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { createTestServer, TestServer, windowRunner } from '../../helpers/harness';
import { Answer, MODERN_ENVELOPE, RawWire, rawBridge, rawHttp, rawStdio } from '../../helpers/rawWire';

const SEED = 20261125;
const METHODS = ['resources/list', 'resources/read', 'resources/templates/list', 'completion/complete', 'resources/subscribe',
	'resources/unsubscribe', 'tools/list', 'tools/call', 'prompts/list', 'prompts/get', 'server/discover', 'logging/setLevel', 'nope/nope'];
/** Codes README "Errors a client may see" documents for a client's mistake (and JSON-RPC's method-not-found). */
const DOCUMENTED = new Set([-32600, -32601, -32602]);

/** Nested `levels` deep: parsers and validators must not recurse without bound. */
function deep(levels: number): unknown {
	let v: unknown = 'bottom';
	for (let i = 0; i < levels; i++) {
		v = i % 2 ? [v] : { a: v };
	}
	return v;
}

/** Params of every shape: wrong types, huge strings, deep objects, unknown fields, plausible ones. */
function paramShapes(uris: readonly string[]): fc.Arbitrary<unknown> {
	const str = fc.oneof(fc.string(), fc.constantFrom(...uris), fc.constant('x'.repeat(200_000)), fc.constant('%'), fc.constant('file:///{+path}'));
	const any = fc.oneof(str, fc.integer(), fc.boolean(), fc.constant(null), fc.constant(deep(2000)), fc.jsonValue({ maxDepth: 3 }));
	const ref = fc.oneof(fc.record({ type: fc.constantFrom('ref/resource', 'ref/prompt', 'ref/x'), uri: any, name: any }, { requiredKeys: ['type'] }), any);
	return fc.oneof(
		fc.constantFrom(undefined, null, 5, 'x', [], {}),
		fc.record({ uri: any, cursor: any, name: any, arguments: any, unknown: any }, { requiredKeys: [] }),
		fc.record({ ref, argument: fc.oneof(fc.record({ name: any, value: any }, { requiredKeys: [] }), any), context: any }, { requiredKeys: [] }),
		fc.dictionary(fc.string({ maxLength: 12 }), any, { maxKeys: 4 }),
	);
}

/** The envelope a 2026-07-28 request carries: usually right, sometimes missing or mangled. */
const envelopes = fc.oneof({ weight: 4, arbitrary: fc.constant<unknown>(MODERN_ENVELOPE) },
	fc.constantFrom<unknown>(undefined, null, 'x', {}, { 'io.modelcontextprotocol/protocolVersion': '1999-01-01' }, { ...MODERN_ENVELOPE, 'io.modelcontextprotocol/protocolVersion': 5 }));

describe('invariant: every malformed request gets its era\'s documented error, leaks nothing, and the next is served (HTTP, stdio, bridge)', function () {
	this.timeout(60_000);
	let fx: Fixture;
	let home: string;
	let server: TestServer;
	let runner: ServerRunner;
	let wires: RawWire[];

	before(async () => {
		fx = createFixture();
		home = mkdtempSync(path.join(os.tmpdir(), 'mwr-invariants-home-'));
		server = createTestServer([fx.root]);
		// A window as VS Code runs it (its lock file in `home`), so the bridge finds it.
		runner = windowRunner(server, () => [fx.root], home);
		await runner.start();
		const { url, token } = await runner.whenRunning();
		wires = [await rawHttp(url, token, 'modern'), await rawHttp(url, token, 'legacy'), await rawStdio(fx.root, home, 'modern'), await rawStdio(fx.root, home, 'legacy'),
			await rawBridge(fx.root, home, 'modern'), await rawBridge(fx.root, home, 'legacy')];
	});
	after(async () => {
		await Promise.all(wires.map(w => w.close()));
		await runner.stop();
		runner.dispose();
		server.dispose();
		fx.dispose();
		rmSync(home, { recursive: true, force: true });
	});

	/** A well-formed request any wire must answer, in its era. */
	function healthy(wire: RawWire): Promise<Answer> {
		return wire.send('resources/templates/list', wire.label.endsWith('modern') ? { _meta: MODERN_ENVELOPE } : {});
	}

	it('answers generated params for every method with a documented code and a clean message, then serves on', async () => {
		const uris = [fileUri(fx.file('README.md')), fileUri(fx.file('.env')), fileUri(path.join(fx.outside, 'passwd')), `${fileUri(fx.root)}/../outside/passwd`];
		const cases = fc.record({ wire: fc.nat(wires.length - 1), method: fc.constantFrom(...METHODS), params: paramShapes(uris), envelope: envelopes });
		await fc.assert(fc.asyncProperty(cases, async ({ wire: w, method, params, envelope }) => {
			const wire = wires[w];
			const withEnvelope = wire.label.endsWith('modern') && params !== null && typeof params === 'object' && !Array.isArray(params) && envelope !== undefined
				? { ...params, _meta: envelope } : params;
			const sent = JSON.stringify(withEnvelope) ?? '';
			const answer = await wire.send(method, withEnvelope);
			assert.ok(answer.result !== undefined || answer.error !== undefined, `${wire.label} ${method}: a JSON-RPC answer (HTTP ${answer.status})`);
			if (answer.error) {
				const { code, message } = answer.error;
				assert.ok(DOCUMENTED.has(code), `${wire.label} ${method} ${sent.slice(0, 200)}: code ${code} ${message.slice(0, 300)}`);
				assert.ok(!/\n\s+at |node_modules|\.ts:\d|\.js:\d/.test(message), `${wire.label} ${method}: no stack trace in ${message.slice(0, 300)}`);
				assert.ok(!message.includes(process.cwd()), `${wire.label} ${method}: no path of the server's own`);
				assert.ok(!message.includes(fx.outside) || sent.includes(fx.outside), `${wire.label} ${method}: no path outside the workspace it was not sent`);
				// The SDK validates tools/call itself and quotes its validator (a -32602 all the same).
				if (method !== 'tools/call') {
					assert.ok(message.length < 600 && !message.includes('"code": "invalid_type"'), `${wire.label} ${method}: a short reason, not a dump: ${message.slice(0, 300)}`);
				}
			}
			const next = await healthy(wire);
			assert.ok(next.result, `${wire.label} serves the next request after ${method}: ${JSON.stringify(next).slice(0, 300)}`);
		}), { seed: SEED, numRuns: 400 });
		assert.deepEqual(server.log.errors, [], 'a client mistake logs no error');
	});
});
