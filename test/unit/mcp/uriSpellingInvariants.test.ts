import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as fc from 'fast-check';
import { fileUri } from '../../../src/core/uriGuard';
import { EraClient, Outcome, readOutcome, watchAccepted } from '../../helpers/eraClients';
import { HIDDEN, InvariantWorkspace, SERVED, startInvariantWorkspace } from '../../helpers/invariantWorkspace';
import { until } from '../../helpers/until';
import { spellingsOf } from '../../helpers/uriSpellings';

/** Fixed seed and modest counts: CI replays the same cases; a failure prints its counterexample. */
const SEED = 20261125;
const RUNS = 100;

/** A read's outcome as the canonical URI's would be under `uri`: contents name the URI asked for. */
function under(outcome: Outcome, uri: string): Outcome {
	if (!outcome.ok) {
		return outcome;
	}
	return { ok: true, value: (outcome.value as Record<string, unknown>[]).map(c => ({ ...c, uri })) };
}

/** What a refusal must be in every era: -32602 naming the URI sent (or a reason without one), nothing of the host. */
function assertCleanRefusal(outcome: Outcome, uri: string, label: string, root: string): void {
	assert.ok(!outcome.ok);
	assert.equal(outcome.code, -32602, `${label}: ${uri}`);
	if (outcome.data !== undefined) {
		assert.deepEqual(outcome.data, { uri }, `${label}: data names the URI sent`);
	}
	assert.ok(!/\n\s+at |node_modules/.test(outcome.message), `${label}: no stack trace`);
	assert.ok(!outcome.message.includes(root.slice(0, root.lastIndexOf('/'))) || outcome.message.includes(root), `${label}: no path outside the workspace`);
}

describe('invariant: one file, one answer, whatever the spelling, in both eras over HTTP, stdio and the bridge', function () {
	this.timeout(60_000);
	let ws: InvariantWorkspace;
	const canonical = new Map<string, Outcome>();

	before(async () => {
		ws = await startInvariantWorkspace();
	});
	after(async () => {
		await ws?.dispose();
	});

	/** The canonical URI's outcome (with `?lines=1` when asked), as the first client reads it. */
	async function canonicalOutcome(rel: string, lines: boolean): Promise<Outcome> {
		const uri = fileUri(ws.fx.file(rel)) + (lines ? '?lines=1' : '');
		if (!canonical.has(uri)) {
			canonical.set(uri, await readOutcome(ws.clients[0], uri));
		}
		return canonical.get(uri)!;
	}

	it('serves every served file under its canonical URI and refuses every hidden one, in every client', async () => {
		for (const c of ws.clients) {
			for (const rel of SERVED) {
				assert.ok((await readOutcome(c, fileUri(ws.fx.file(rel)))).ok, `${c.label} reads ${rel}`);
			}
			for (const rel of HIDDEN) {
				const uri = fileUri(ws.fx.file(rel));
				assertCleanRefusal(await readOutcome(c, uri), uri, `${c.label} ${rel}`, ws.fx.root);
			}
		}
	});

	it('reads, subscribes or listens to a generated spelling exactly as to its file, or refuses it everywhere', async () => {
		const files = [...SERVED, ...HIDDEN].map(rel => ({ rel, hidden: HIDDEN.includes(rel) }));
		const cases = fc.constantFrom(...files).chain(file => spellingsOf(ws.fx.file(file.rel)).map(spelling => ({ file, spelling })));
		await fc.assert(fc.asyncProperty(cases, async ({ file, spelling }) => {
			const expected = spelling.sameFile ? under(await canonicalOutcome(file.rel, spelling.lines), spelling.uri) : undefined;
			for (const c of ws.clients) {
				const got = await readOutcome(c, spelling.uri);
				if (expected?.ok) {
					assert.deepEqual(got, expected, `${c.label} reads ${spelling.uri} as ${file.rel}`);
				} else {
					assert.ok(!got.ok, `${c.label} must refuse ${spelling.uri} (${file.hidden ? 'hidden' : 'another or no file'})`);
					if (expected) {
						assert.equal(got.code, expected.code, `${c.label}: ${spelling.uri} refused as its file is`);
					} else {
						assertCleanRefusal(got, spelling.uri, c.label, ws.fx.root);
					}
				}
				// Watched exactly when it names a served file: a hidden file or a bent spelling never
				// is. (Lines of a binary file do not read now but are watched: the file may change.)
				const names = spelling.sameFile && !file.hidden;
				assert.equal(await watchAccepted(c, spelling.uri), names, `${c.label} watches ${spelling.uri} only if it names a served file`);
				assert.ok(!got.ok || names, `${c.label} reads only what names a served file`);
			}
		}), { seed: SEED, numRuns: RUNS });
	});

	it('notifies each watched spelling under that spelling when its file changes, and never a refused one', async () => {
		const files = [...SERVED, ...HIDDEN];
		const generated = fc.sample(fc.constantFrom(...files).chain(rel => spellingsOf(ws.fx.file(rel))), { seed: SEED, numRuns: 60 }).map(s => s.uri);
		// context://relevant too: it ranks files written on disk, and must never name a hidden one.
		const uris = [...new Set(['context://relevant', ...files.map(rel => fileUri(ws.fx.file(rel))), ...generated])];
		const watching: { c: EraClient; accepted: Set<string>; stop: () => Promise<void> }[] = [];
		for (const c of ws.clients) {
			if (c.era === 'legacy') {
				const accepted = new Set<string>();
				for (const uri of uris) {
					await c.client.subscribeResource({ uri }).then(() => accepted.add(uri), () => undefined);
				}
				watching.push({ c, accepted, stop: async () => { for (const uri of accepted) { await c.client.unsubscribeResource({ uri }); } } });
			} else {
				const listen = await c.client.listen({ resourceSubscriptions: uris });
				watching.push({ c, accepted: new Set(listen.honoredFilter.resourceSubscriptions ?? []), stop: () => listen.close() });
			}
		}
		// Hidden files change first, so a wrong notification would come no later than the right ones.
		for (const rel of [...HIDDEN, ...SERVED].filter(r => !r.startsWith('link-') && r !== '.git/config')) {
			writeFileSync(ws.fx.file(rel), `${rel} changed\n`);
		}
		for (const { c, accepted, stop } of watching) {
			assert.ok(accepted.size >= SERVED.length, `${c.label} watches every served file at least`);
			await until(c.onDidUpdate, () => [...accepted].every(u => c.updates.includes(u)), `${c.label} to hear every watched spelling`, 20_000,
				() => JSON.stringify([...accepted].filter(u => !c.updates.includes(u))));
			const refused = c.updates.filter(u => !accepted.has(u));
			assert.deepEqual(refused, [], `${c.label} heard only what it watches`);
			const relevant = ((await c.client.readResource({ uri: 'context://relevant' })).contents[0] as { text: string }).text;
			assert.ok(SERVED.some(rel => relevant.includes(JSON.stringify(rel))), `${c.label}: context://relevant ranks a file written`);
			for (const rel of HIDDEN) {
				assert.ok(!relevant.toLowerCase().includes(rel.toLowerCase()), `${c.label}: context://relevant never names ${rel}`);
			}
			await stop();
		}
	});
});
