import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { CLI, cliEnv } from '../../helpers/headlessHost';

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

	it('serve --stdio walks the workspace in the worker bundled beside it (dist/walkWorker.js)', async () => {
		// A command bundle that looked for the worker anywhere but next to itself would fall back
		// to the main thread with a warning: the index line must come without one.
		const root = path.join(scratch, 'ws');
		mkdirSync(path.join(root, 'src'), { recursive: true });
		writeFileSync(path.join(root, 'src', 'a.ts'), 'export {};\n');
		const child = spawn(process.execPath, [CLI, 'serve', '--root', root, '--stdio'], { env: cliEnv(scratch), stdio: ['pipe', 'ignore', 'pipe'] });
		const lines: string[] = [];
		try {
			for await (const line of createInterface({ input: child.stderr })) {
				lines.push(line);
				if (/indexed \d+ files/.test(line)) {
					break;
				}
			}
		} finally {
			child.stdin.end();
			if (child.exitCode === null) {
				await once(child, 'exit');
			}
		}
		assert.ok(lines.some(l => /indexed 1 files/.test(l)), lines.join('\n'));
		assert.deepEqual(lines.filter(l => /worker thread/.test(l)), []);
	});
});
