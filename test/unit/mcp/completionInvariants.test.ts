import * as assert from 'node:assert/strict';
import { UriTemplate } from '@modelcontextprotocol/client';
import * as fc from 'fast-check';
import { outcomeOf, readOutcome } from '../../helpers/eraClients';
import { HIDDEN, InvariantWorkspace, SERVED, startInvariantWorkspace } from '../../helpers/invariantWorkspace';

const SEED = 20261125;
const RUNS = 100;
const FILE_TEMPLATES = ['file:///{+path}', 'file:///{+path}{?lines}'];

/** A partial path a user may type: a cut of a real path, then at most one twist of its spelling. */
function partialValues(paths: readonly string[]): fc.Arbitrary<string> {
	return fc.record({
		path: fc.constantFrom(...paths),
		cut: fc.double({ min: 0, max: 1, noNaN: true }),
		twist: fc.constantFrom('none', 'none', 'upper', 'lower', 'flip-one', 'dot-dot', 'dot', 'encode-one', 'leading-slash', 'double-slash'),
		at: fc.nat(),
	}).map(({ path, cut, twist, at }) => {
		const chars = Array.from(path).slice(0, Math.round(cut * Array.from(path).length));
		const i = chars.length === 0 ? 0 : at % chars.length;
		switch (twist) {
			case 'upper': return chars.join('').toUpperCase();
			case 'lower': return chars.join('').toLowerCase();
			case 'flip-one': return chars.map((c, k) => (k === i ? (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) : c)).join('');
			case 'dot-dot': return chars.map((c, k) => (k === i && c === '/' ? '/../' : c)).join('') + (chars.length === 0 ? '../' : '');
			case 'dot': return chars.map((c, k) => (k === i && c === '/' ? '/./' : c)).join('');
			case 'encode-one': return chars.map((c, k) => (k === i ? encodeURIComponent(c).replace(/^[^%]/, m => `%${m.charCodeAt(0).toString(16)}`) : c)).join('');
			case 'leading-slash': return `/${chars.join('')}`;
			case 'double-slash': return chars.map((c, k) => (k === i && c === '/' ? '//' : c)).join('');
			default: return chars.join('');
		}
	});
}

describe('invariant: completion suggests only what reads, the same in both eras over HTTP, stdio and the bridge', function () {
	this.timeout(60_000);
	let ws: InvariantWorkspace;
	const reads = new Map<string, boolean>();

	before(async () => {
		ws = await startInvariantWorkspace();
	});
	after(async () => {
		await ws?.dispose();
	});

	it('every suggestion for a generated partial path expands to a URI that reads, and every client suggests the same', async () => {
		const paths = [...SERVED, ...HIDDEN].map(rel => ws.fx.file(rel).slice(1));
		await fc.assert(fc.asyncProperty(partialValues(paths), fc.constantFrom(...FILE_TEMPLATES), async (value, uriTemplate) => {
			const answers = [];
			for (const c of ws.clients) {
				const answer = await outcomeOf(c.client.complete({ ref: { type: 'ref/resource', uri: uriTemplate }, argument: { name: 'path', value } }),
					(r: { completion: unknown }) => r.completion);
				assert.ok(answer.ok, `${c.label} completes ${JSON.stringify(value)}: ${JSON.stringify(answer)}`);
				answers.push(answer.value);
			}
			for (const [i, answer] of answers.entries()) {
				assert.deepEqual(answer, answers[0], `${ws.clients[i].label} suggests what ${ws.clients[0].label} does for ${JSON.stringify(value)}`);
			}
			const values = (answers[0] as { values: string[] }).values;
			for (const suggestion of values) {
				// Expanded as clients do (RFC 6570, the SDK's own UriTemplate), it must read.
				const uri = new UriTemplate('file:///{+path}').expand({ path: suggestion });
				if (!reads.has(uri)) {
					reads.set(uri, (await readOutcome(ws.clients[0], uri)).ok);
				}
				assert.ok(reads.get(uri), `suggested ${JSON.stringify(suggestion)} for ${JSON.stringify(value)}, but ${uri} does not read`);
			}
		}), { seed: SEED, numRuns: RUNS });
	});

	it('suggests no hidden file for any spelling of its own path', async () => {
		for (const rel of HIDDEN) {
			const full = ws.fx.file(rel).slice(1);
			for (const value of [full, full.toUpperCase(), full.toLowerCase(), rel, rel.toUpperCase(), rel.split('/').pop()!]) {
				for (const c of ws.clients) {
					const { completion } = await c.client.complete({ ref: { type: 'ref/resource', uri: 'file:///{+path}' }, argument: { name: 'path', value } });
					assert.ok(!completion.values.some(v => HIDDEN.some(h => v === ws.fx.file(h).slice(1))), `${c.label} suggests a hidden file for ${value}`);
				}
			}
		}
	});
});
