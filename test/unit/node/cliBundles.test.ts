import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileFilter } from '../../../src/core/files/fileFilter';
import { FileIndex } from '../../../src/core/files/fileIndex';
import { WorkspaceRoots } from '../../../src/core/files/workspaceRoots';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { ThreadWalker } from '../../../src/node/threadWalker';
import { defaultFileSettings } from '../../fakes/fakeSettings';
import { RecordingLogger } from '../../helpers/harness';
import { CLI } from '../../helpers/headlessHost';

/**
 * What each CLI command loads: its own bundle next to dist/cli.js and nothing else of ours, and
 * `serve --stdio` not Node's HTTP stack. Memory is what is at stake (a bundle evaluates all it
 * holds), so this checks what a real run of the built CLI has loaded, not the bundles' text.
 */
describe('CLI bundles: each command loads only what it runs', function () {
	this.timeout(30_000);
	let scratch: string;
	beforeEach(() => {
		scratch = mkdtempSync(path.join(os.tmpdir(), 'mwr-cli-bundles-'));
	});
	afterEach(() => rmSync(scratch, { recursive: true, force: true }));

	/** Runs `main(argv)` of the built CLI in a fresh Node and reports what it had loaded once `main` returned. */
	function loadedBy(argv: string[]): { bundles: string[]; http: boolean } {
		// The report goes to a file: the command's own output (a URL, the version) is on stdout.
		const report = path.join(scratch, 'loaded.json');
		const script = `
			const path = require('node:path');
			const cli = require(${JSON.stringify(CLI)});
			const report = () => {
				const bundles = Object.keys(require.cache).map(f => path.relative(path.dirname(${JSON.stringify(CLI)}), f).split(path.sep).join('/')).sort();
				require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify({ bundles, http: process.moduleLoadList.includes('NativeModule http') }));
				process.exit(0);
			};
			cli.main(${JSON.stringify(argv)}).then(report, report);`;
		const env = { ...process.env, MCP_WORKSPACE_RESOURCES_HOME: scratch };
		execFileSync(process.execPath, ['-e', script], { env, cwd: scratch, stdio: 'ignore' });
		return JSON.parse(readFileSync(report, 'utf8')) as { bundles: string[]; http: boolean };
	}

	it('serve --stdio: dist/serveStdio.js, and no HTTP', () => {
		assert.deepEqual(loadedBy(['serve', '--root', scratch, '--stdio', '--log-level', 'error']), { bundles: ['cli.js', 'serveStdio.js'], http: false });
	});

	it('serve --http: dist/serveHttp.js', () => {
		assert.deepEqual(loadedBy(['serve', '--root', scratch, '--http', '--log-level', 'error']), { bundles: ['cli.js', 'serveHttp.js'], http: true });
	});

	it('bridge: dist/bridgeCommand.js', () => {
		// No window serves the scratch folder: the bridge says so and returns, its bundle loaded.
		assert.deepEqual(loadedBy(['bridge', '--workspace', scratch]).bundles, ['bridgeCommand.js', 'cli.js']);
	});

	it('--version: dist/cli.js alone', () => {
		assert.deepEqual(loadedBy(['--version']), { bundles: ['cli.js'], http: false });
	});

	it('ships the walk worker beside the extension bundle, and it walks from there', async () => {
		// dist/extension.js starts dist/walkWorker.js from its own folder (src/node/threadWalker.ts);
		// a worker bundle missing or broken would leave the editor walking on its event loop.
		const worker = path.join(path.dirname(CLI), 'walkWorker.js');
		assert.ok(existsSync(path.join(path.dirname(CLI), 'extension.js')), 'dist/extension.js beside it');
		const root = path.join(scratch, 'ws');
		mkdirSync(path.join(root, 'src'), { recursive: true });
		writeFileSync(path.join(root, 'src', 'a.ts'), 'export {};\n');
		const reader = new NodeFileSystem();
		const roots = await WorkspaceRoots.resolve([{ name: 'ws', path: root }], reader);
		const log = new RecordingLogger();
		const index = new FileIndex(reader, roots, new FileFilter(reader, defaultFileSettings), new ThreadWalker(log, worker));
		await index.build();
		assert.deepEqual(log.warnings, [], 'no fallback to the main thread');
		assert.equal(index.sorted().length, 1);
	});
});
