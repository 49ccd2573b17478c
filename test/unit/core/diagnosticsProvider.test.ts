import * as assert from 'node:assert/strict';
import { DiagnosticsProvider } from '../../../src/core/diagnostics/diagnosticsProvider';
import { renderProblemsMarkdown } from '../../../src/core/diagnostics/problemSummary';
import { ProviderRegistry } from '../../../src/core/registry';
import { StaticFolders } from '../../../src/node/staticSources';
import { FakeDiagnostics, problem } from '../../fakes/fakeDiagnostics';
import { readJson } from '../../helpers/readJson';
import { connectInMemory, ConnectedClient, errorOf, fastTracker } from '../../helpers/harness';
import { scopeOver } from '../../helpers/workspaceScope';

const WS = '/ws-diag';

describe('diagnostics provider through an MCP client', () => {
	let source: FakeDiagnostics;
	let registry: ProviderRegistry;
	let conn: ConnectedClient;

	async function start(roots = [WS], initial: ConstructorParameters<typeof FakeDiagnostics>[0] = {}) {
		source = new FakeDiagnostics(initial);
		const { scope } = scopeOver(new StaticFolders(roots));
		registry = new ProviderRegistry([new DiagnosticsProvider(source, scope)], fastTracker);
		conn = await connectInMemory(registry);
	}

	afterEach(async () => {
		await conn?.close();
		registry?.dispose();
	});

	it('lists the workspace resource and one per file with problems, sorted, with counts and priorities', async () => {
		await start([WS], {
			[`${WS}/src/b.ts`]: [problem('warning', 1, 'unused')],
			[`${WS}/src/a b.ts`]: [problem('error', 3, 'bad type', { source: 'ts', code: 2322 }), problem('warning', 0, 'meh')],
			'/elsewhere/x.ts': [problem('error', 0, 'outside')],
			[`${WS}/.env`]: [problem('error', 0, 'secret line')],
		});
		const { resources } = await conn.client.listResources();
		assert.deepEqual(resources.map(r => r.uri), ['diagnostics://file/src/a%20b.ts', 'diagnostics://file/src/b.ts', 'diagnostics://workspace']);
		const [ab, b, ws] = resources;
		assert.equal(ab.description, '1 error, 1 warning');
		assert.equal(b.description, '0 errors, 1 warning');
		assert.equal(ws.description, '1 error, 2 warnings in 2 files');
		assert.equal(ws.mimeType, 'application/json');
		assert.ok(ab.annotations!.priority! > b.annotations!.priority!, 'files with errors rank higher');
	});

	it('reads what it lists for a file whose name holds a backslash (an ordinary character on POSIX)', async () => {
		await start([WS], { [`${WS}/src/back\\slash.ts`]: [problem('error', 0, 'odd name')] });
		const { resources } = await conn.client.listResources();
		const listed = resources.find(r => r.uri.startsWith('diagnostics://file/'))!.uri;
		assert.equal(listed, 'diagnostics://file/src/back%5Cslash.ts');
		const { contents } = await conn.client.readResource({ uri: listed });
		assert.equal(JSON.parse((contents[0] as { text: string }).text).file, 'src/back\\slash.ts');
	});

	it('renders a message with a long run of white space in linear time, folding only runs that break a line', () => {
		// /\s*\n\s*/g read a run without a line break again from each of its characters.
		const message = `a${'\t'.repeat(300_000)}b \n\t c`;
		const problemLine = renderProblemsMarkdown({
			summary: { errors: 1, warnings: 0, information: 0, hints: 0 },
			problems: [{ file: 'x.ts', severity: 'error', message, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } }],
		}).split('\n')[1];
		assert.equal(problemLine, `- **error** \`x.ts:1:1\` a${'\t'.repeat(300_000)}b c`);
	});

	it('reads JSON (file, severity, range, message, source, code), renderable as Markdown', async () => {
		await start([WS], { [`${WS}/src/a.ts`]: [problem('warning', 7, 'later'), problem('error', 3, "Type 'number' is not assignable", { source: 'ts', code: 2322 })] });
		const { contents } = await conn.client.readResource({ uri: 'diagnostics://file/src/a.ts' });
		assert.equal(contents[0].mimeType, 'application/json');
		const body = JSON.parse((contents[0] as { text: string }).text);
		assert.equal(body.file, 'src/a.ts');
		assert.equal(body.uri, 'file:///ws-diag/src/a.ts');
		assert.deepEqual(body.summary, { errors: 1, warnings: 1, information: 0, hints: 0 });
		assert.deepEqual(body.problems[0], {
			file: 'src/a.ts', severity: 'error', message: "Type 'number' is not assignable", source: 'ts', code: 2322,
			range: { start: { line: 3, character: 2 }, end: { line: 3, character: 8 } },
		});
		assert.equal(contents.length, 1, 'one content item');
		assert.match(renderProblemsMarkdown(body), /- \*\*error\*\* `src\/a\.ts:4:3` Type 'number' is not assignable \(ts 2322\)/);

		const ws = await readJson(conn, 'diagnostics://workspace');
		assert.deepEqual(ws.problems.map((p: { severity: string }) => p.severity), ['error', 'warning'], 'errors first');
		assert.equal(ws.summary.files, 1);
	});

	it('reads a file without problems as an empty list, refuses secrets, traversal and outside paths', async () => {
		await start();
		const body = await readJson(conn, 'diagnostics://file/src/clean.ts');
		assert.deepEqual(body.problems, []);
		for (const uri of ['diagnostics://file/.env', 'diagnostics://file/src/../../etc/passwd', 'diagnostics://file/%2e%2e/x', 'diagnostics://file/', 'diagnostics://nope']) {
			const err = await errorOf(conn.client.readResource({ uri }));
			assert.equal(err.code, -32602, uri);
			assert.deepEqual(err.data, { uri });
		}
	});

	it('notifies subscribers and list_changed when a file gains and loses problems', async () => {
		await start();
		await conn.client.listResources();
		await conn.client.subscribeResource({ uri: 'diagnostics://file/src/a.ts' });
		await conn.client.subscribeResource({ uri: 'diagnostics://workspace' });
		const listChanged = conn.waitForListChanged();
		source.set(`${WS}/src/a.ts`, [problem('error', 0, 'broken')]);
		await conn.waitForUpdate('diagnostics://file/src/a.ts');
		await conn.waitForUpdate('diagnostics://workspace');
		await listChanged;
		assert.deepEqual((await conn.client.listResources()).resources.map(r => r.uri), ['diagnostics://file/src/a.ts', 'diagnostics://workspace']);

		// Same set of files, other problems: updated, but the list did not change.
		const before = conn.listChangedCount();
		conn.updates.length = 0;
		source.set(`${WS}/src/a.ts`, [problem('error', 0, 'broken'), problem('error', 1, 'also')]);
		await conn.waitForUpdate('diagnostics://file/src/a.ts');
		assert.equal(conn.listChangedCount(), before);

		const gone = conn.waitForListChanged();
		source.set(`${WS}/src/a.ts`, []);
		await gone;
		assert.deepEqual((await conn.client.listResources()).resources.map(r => r.uri), ['diagnostics://workspace']);
	});

	it('notifies a subscription by the URI exactly as the client spelled it (@ and + as the template expands them, lowercase or no escapes)', async () => {
		await start();
		// RFC 6570 (the SDK's UriTemplate) expands diagnostics://file/{+path} keeping @ + , raw; the listing escapes them.
		const spellings = ['diagnostics://file/packages/@scope/a+b.ts', 'diagnostics://file/src/caf%c3%a9.ts', 'diagnostics://file/src/caf\u00e9.ts'];
		for (const uri of spellings) {
			await conn.client.subscribeResource({ uri });
		}
		source.set(`${WS}/packages/@scope/a+b.ts`, [problem('error', 0, 'broken')]);
		source.set(`${WS}/src/caf\u00e9.ts`, [problem('error', 0, 'broken')]);
		for (const uri of spellings) {
			await conn.waitForUpdate(uri);
		}
		assert.ok(!conn.updates.includes('diagnostics://file/packages/%40scope/a%2Bb.ts'), 'nobody subscribed by the listed spelling');
	});

	it('coalesces a burst of diagnostics events into few notifications', async () => {
		await start();
		await conn.client.subscribeResource({ uri: 'diagnostics://workspace' });
		for (let i = 0; i < 200; i++) {
			source.set(`${WS}/src/f${i % 5}.ts`, [problem('error', i, 'typing')]);
		}
		await conn.waitForUpdate('diagnostics://workspace');
		registry.flushChanges();
		assert.ok(conn.updates.filter(u => u === 'diagnostics://workspace').length <= 3, `got ${conn.updates.length} updates`);
	});

	it('completes file paths that have problems and offers the template', async () => {
		await start([WS], { [`${WS}/src/a.ts`]: [problem('error', 0, 'x')], [`${WS}/lib/b.ts`]: [problem('hint', 0, 'y')] });
		const { resourceTemplates } = await conn.client.listResourceTemplates();
		assert.deepEqual(resourceTemplates.map(t => t.uriTemplate), ['diagnostics://file/{+path}']);
		const result = await conn.client.complete({ ref: { type: 'ref/resource', uri: 'diagnostics://file/{+path}' }, argument: { name: 'path', value: 'sr' } });
		assert.deepEqual(result.completion.values, ['src/a.ts']);
	});

	it('prefixes paths with the folder name in a multi-root workspace', async () => {
		await start(['/ws-one/app', '/ws-two/lib'], { '/ws-two/lib/x.ts': [problem('error', 0, 'x')] });
		const { resources } = await conn.client.listResources();
		assert.ok(resources.some(r => r.uri === 'diagnostics://file/lib/x.ts'), resources.map(r => r.uri).join());
		const body = await readJson(conn, 'diagnostics://file/lib/x.ts');
		assert.equal(body.problems.length, 1);
	});
});
