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
 * The server is bundled once, into dist/main.js: the extension's main, from which dist/cli.js
 * takes the command it runs. What each process evaluates of it is what is at stake (memory and
 * start time), so this checks what a real run of the built CLI has loaded, not the bundles' text:
 * `serve --stdio` not Node's HTTP stack, `--version` not the bundle at all.
 */
describe('CLI bundles: one bundle, and each command evaluates only what it runs', function () {
	this.timeout(30_000);
	const dist = path.dirname(CLI);
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

	it('ships the SDK and the server once: only dist/main.js of the shipped scripts holds them', () => {
		const shipped = readFileSync(path.join(dist, '..', '.vscodeignore'), 'utf8').split('\n')
			.filter(line => /^!dist\/[^/]+\.js$/.test(line)).map(line => line.slice('!dist/'.length)).sort();
		assert.deepEqual(shipped, ['claudeTokenizer.js', 'cli.js', 'grammarWorker.js', 'main.js', 'searchWorker.js', 'signerWorker.js', 'treeSitterRuntime.js', 'walkWorker.js']);
		// A method name only the SDK's server and our server side spell out.
		const holders = shipped.filter(file => readFileSync(path.join(dist, file), 'utf8').includes('notifications/subscriptions/acknowledged'));
		assert.deepEqual(holders, ['main.js']);
	});

	it('loading dist/main.js evaluates none of its modules until one is asked for (no Node module loaded, no vscode needed)', () => {
		const script = `
			const before = new Set(process.moduleLoadList);
			const main = require(${JSON.stringify(path.join(dist, 'main.js'))});
			const loaded = process.moduleLoadList.filter(m => !before.has(m));
			// Written only now: process.stdout itself loads Node's stream modules.
			process.stdout.write(JSON.stringify({ exports: Object.keys(main).sort(), commands: Object.keys(main.cliCommands).sort(), loaded }));`;
		assert.deepEqual(JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })), {
			exports: ['activate', 'cliCommands', 'deactivate'], commands: ['bridgeCommand', 'serveHttp', 'serveStdio'], loaded: [],
		});
	});

	it('serve --stdio: dist/main.js, and no HTTP', () => {
		assert.deepEqual(loadedBy(['serve', '--root', scratch, '--stdio', '--log-level', 'error']), { bundles: ['cli.js', 'main.js'], http: false });
	});

	it('serve --http: dist/main.js, and HTTP', () => {
		assert.deepEqual(loadedBy(['serve', '--root', scratch, '--http', '--log-level', 'error']), { bundles: ['cli.js', 'main.js'], http: true });
	});

	it('bridge: dist/main.js', () => {
		// No window serves the scratch folder: the bridge says so and returns, its code loaded.
		assert.deepEqual(loadedBy(['bridge', '--workspace', scratch]).bundles, ['cli.js', 'main.js']);
	});

	it('--version: dist/cli.js alone', () => {
		assert.deepEqual(loadedBy(['--version']), { bundles: ['cli.js'], http: false });
	});

	it('ships the walk worker beside the extension bundle, and it walks from there', async () => {
		// dist/main.js starts dist/walkWorker.js from its own folder (src/node/threadWalker.ts);
		// a worker bundle missing or broken would leave the editor walking on its event loop.
		const worker = path.join(dist, 'walkWorker.js');
		assert.ok(existsSync(path.join(dist, 'main.js')), 'dist/main.js beside it');
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
