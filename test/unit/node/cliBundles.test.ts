import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
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

	it('serve --stdio: dist/cli/serveStdio.js, and no HTTP', () => {
		assert.deepEqual(loadedBy(['serve', '--root', scratch, '--stdio', '--log-level', 'error']), { bundles: ['cli.js', 'cli/serveStdio.js'], http: false });
	});

	it('serve --http: dist/cli/serveHttp.js', () => {
		assert.deepEqual(loadedBy(['serve', '--root', scratch, '--http', '--log-level', 'error']), { bundles: ['cli.js', 'cli/serveHttp.js'], http: true });
	});

	it('bridge: dist/cli/bridgeCommand.js', () => {
		// No window serves the scratch folder: the bridge says so and returns, its bundle loaded.
		assert.deepEqual(loadedBy(['bridge', '--workspace', scratch]).bundles, ['cli.js', 'cli/bridgeCommand.js']);
	});

	it('--version: dist/cli.js alone', () => {
		assert.deepEqual(loadedBy(['--version']), { bundles: ['cli.js'], http: false });
	});
});
