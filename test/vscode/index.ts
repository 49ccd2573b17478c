// Entry point VS Code loads inside its extension host (`extensionTestsPath`), for both
// code-server (scripts/run-vscode-tests.mjs) and @vscode/test-electron
// (scripts/run-electron-tests.mjs). It runs every compiled `*.test.js` next to it with mocha.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

/** Written when `MCP_VSCODE_TEST_RESULTS` names a file: the runners read the counts from it. */
interface ResultsFile {
	passes: number;
	failures: number;
	pending: number;
	failed: { title: string; error: string }[];
}

export function run(): Promise<void> {
	const mocha = new Mocha({
		ui: 'bdd',
		reporter: 'spec',
		color: false,
		timeout: Number(process.env.MCP_VSCODE_TEST_TIMEOUT ?? 60_000),
		slow: 5_000,
		forbidOnly: true,
		forbidPending: true,
		grep: process.env.MCP_VSCODE_TEST_GREP || undefined,
	});
	const files = fs.readdirSync(__dirname, { recursive: true })
		.map(String)
		.filter(rel => rel.endsWith('.test.js'))
		.sort();
	for (const rel of files) {
		mocha.addFile(path.join(__dirname, rel));
	}

	const results: ResultsFile = { passes: 0, failures: 0, pending: 0, failed: [] };
	return new Promise((resolve, reject) => {
		const runner = mocha.run(failures => {
			const file = process.env.MCP_VSCODE_TEST_RESULTS;
			if (file) {
				fs.writeFileSync(file, JSON.stringify(results, null, 2));
			}
			console.log(`MCP_VSCODE_TEST_RESULTS ${JSON.stringify({ passes: results.passes, failures: results.failures })}`);
			if (failures > 0) {
				reject(new Error(`${failures} test(s) failed`));
			} else if (results.passes === 0) {
				reject(new Error('no tests ran'));
			} else {
				resolve();
			}
		});
		runner.on('pass', () => { results.passes++; });
		runner.on('pending', () => { results.pending++; });
		runner.on('fail', (test, err: Error) => {
			results.failures++;
			results.failed.push({ title: test.fullTitle(), error: String(err?.stack ?? err) });
		});
	});
}
