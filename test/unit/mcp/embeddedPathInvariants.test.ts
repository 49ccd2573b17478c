import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { DiagnosticsProvider } from '../../../src/core/diagnostics/diagnosticsProvider';
import { FILE_TEMPLATE } from '../../../src/core/files/filesProvider';
import { OutlineProvider } from '../../../src/core/outline/outlineProvider';
import { RangesProvider } from '../../../src/core/ranges/rangesProvider';
import { ProviderRegistry } from '../../../src/core/registry';
import { WorkspaceScope } from '../../../src/core/workspaceScope';
import { HttpHost } from '../../../src/mcp/http/httpHost';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { StaticFolders } from '../../../src/node/staticSources';
import { FakeDiagnostics, problem } from '../../fakes/fakeDiagnostics';
import { FakeOutline, sym } from '../../fakes/fakeOutline';
import { EraClient, httpEraClients, Outcome, readOutcome, walkList, watchAccepted } from '../../helpers/eraClients';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { createTestServer, fastTracker, TestServer } from '../../helpers/harness';
import { PathFamily, spellingsOf } from '../../helpers/uriSpellings';

const SEED = 20261125;
const SERVED = ['README.md', 'src/index.ts', 'src/ünïcödé 文件.txt', 'pkg/keep.log', 'link-inside.md', 'odd/100% done.md', 'odd/back\\slash.ts'];
/** Secret by name (in any letter case): every spelling, renamed or not, is refused. */
const SECRET = ['.env', 'config/.env.production', 'certs/server.pem', 'keys/Server.KEY'];
const HIDDEN = [...SECRET, 'build/out.js', 'pkg/generated/gen.ts', 'link-to-secret'];

/** `diagnostics://file/…` and `outline://file/…`: the scheme and host exactly, a workspace-relative path. */
function family(scheme: string): PathFamily {
	return { goodPrefixes: [`${scheme}://file`], badPrefixes: [`${scheme.toUpperCase()}://file`, `${scheme}://FILE`, `${scheme}:/file`, `${scheme}://file/`], lines: false };
}
const FAMILIES = [family('diagnostics'), family('outline')];

describe('invariant: problems and outlines of a file answer alike for every spelling of its path, in both eras over HTTP', function () {
	this.timeout(60_000);
	let fx: Fixture;
	let server: TestServer;
	let registry: ProviderRegistry;
	let host: HttpHost;
	let clients: EraClient[];

	before(async () => {
		fx = createFixture();
		for (const rel of ['odd/100% done.md', 'odd/back\\slash.ts', 'keys/Server.KEY']) {
			fx.write(rel, `${rel}\n`);
		}
		server = createTestServer([fx.root]);
		const folders = new StaticFolders([fx.root]);
		const scope = new WorkspaceScope(folders, server.files, new NodeFileSystem());
		const diagnostics = new FakeDiagnostics(Object.fromEntries([...SERVED, ...HIDDEN].map(rel => [fx.file(rel), [problem('error', 0, `in ${rel}`)]])));
		const outline = new FakeOutline();
		for (const rel of [...SERVED, ...HIDDEN]) {
			outline.set(fx.file(rel), [sym('top', 'Function', 0, 0)]);
		}
		registry = new ProviderRegistry([
			new DiagnosticsProvider(diagnostics, scope),
			new OutlineProvider(outline, scope, folders, server.files, FILE_TEMPLATE, { throttleMs: 10 }),
			new RangesProvider({ files: server.files, scope, reader: new NodeFileSystem(), outline }),
			server.files,
		], fastTracker);
		host = new HttpHost({ registry, log: server.log, pageSize: 4 });
		const { url, token } = await host.start();
		clients = await httpEraClients(url, token);
	});
	after(async () => {
		await Promise.all(clients.map(c => c.close()));
		await host.stop();
		host.dispose();
		registry.dispose();
		fx.dispose();
	});

	it('reads every listed problems resource, and lists problems for every served file and no hidden one', async () => {
		for (const c of clients) {
			const listed = (await walkList(c)).map(r => r.uri as string).filter(u => u.startsWith('diagnostics://file/'));
			assert.deepEqual(listed.map(u => decodeURIComponent(u.slice('diagnostics://file/'.length))).sort(), [...SERVED].sort(), c.label);
			for (const uri of listed) {
				assert.ok((await readOutcome(c, uri)).ok, `${c.label} reads listed ${uri}`);
			}
		}
	});

	it('reads or watches a generated spelling of a problems or outline URI as its canonical URI, or refuses it everywhere', async () => {
		const canonical = new Map<string, Outcome>();
		const cases = fc.record({ rel: fc.constantFrom(...SERVED, ...HIDDEN), f: fc.nat(FAMILIES.length - 1) })
			.chain(({ rel, f }) => spellingsOf(`/${rel}`, FAMILIES[f]).map(spelling => ({ rel, hidden: HIDDEN.includes(rel), canonicalUri: `${FAMILIES[f].goodPrefixes[0]}/${rel.split('/').map(encodeURIComponent).join('/')}`, spelling })));
		await fc.assert(fc.asyncProperty(cases, async ({ rel, hidden, canonicalUri, spelling }) => {
			if (!canonical.has(canonicalUri)) {
				canonical.set(canonicalUri, await readOutcome(clients[0], canonicalUri));
			}
			const base = canonical.get(canonicalUri)!;
			assert.equal(base.ok, !hidden, `${canonicalUri} reads exactly when ${rel} is served`);
			for (const c of clients) {
				const got = await readOutcome(c, spelling.uri);
				const watched = await watchAccepted(c, spelling.uri);
				if (spelling.sameFile && base.ok) {
					assert.deepEqual(got, { ok: true, value: (base.value as object[]).map(v => ({ ...v, uri: spelling.uri })) }, `${c.label} reads ${spelling.uri} as ${canonicalUri}`);
					assert.ok(watched, `${c.label} watches ${spelling.uri}`);
				} else if (spelling.renamed && !SECRET.includes(rel)) {
					// Another path, which does not exist: problems may answer that it has none, and it
					// may be watched, as a file that may appear; never with the file's own problems.
					assert.ok(!got.ok || !JSON.stringify(got.value).includes(`in ${rel}`), `${c.label}: ${spelling.uri} is not ${rel}`);
				} else {
					assert.ok(!got.ok && got.code === -32602, `${c.label} refuses ${spelling.uri}: ${JSON.stringify(got).slice(0, 200)}`);
					assert.ok(!watched, `${c.label} never watches ${spelling.uri}`);
				}
			}
		}), { seed: SEED, numRuns: 100 });
	});
});
