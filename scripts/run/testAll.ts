// `npm test`: every part in turn (lint and types, unit, real VS Code, browser UI, outside
// tools), each part's own output streamed, then one summary line per part. A failing part
// does not stop the others, so one run shows everything; the exit code is non-zero if any failed.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

interface Part {
	name: string;
	command: string;
	/** The part's one summary line, from its output. */
	summary(out: string): string;
	/** Whether the part runs in this checkout (default: always). */
	when?(): boolean;
}

const parts: Part[] = [
	{ name: 'lint', command: 'npm run --silent lint && npm run --silent typecheck', summary: () => 'eslint and tsc clean' },
	{ name: 'unit', command: 'npm run --silent test:unit', summary: mochaSummary },
	{ name: 'security', command: 'npm run --silent test:security', summary: mochaSummary },
	{ name: 'reliability', command: 'npm run --silent test:reliability', summary: mochaSummary },
	// The in-editor suite runs in code-server (works offline); MCP_VSCODE_RUNNER=electron runs
	// the same suite through @vscode/test-electron on machines that can download VS Code.
	process.env.MCP_VSCODE_RUNNER === 'electron'
		? { name: 'vscode', command: 'npm run --silent test:electron', summary: out => lastLine(out, /^electron: .*$/m) }
		: { name: 'vscode', command: 'npm run --silent test:vscode', summary: out => lastLine(out, /^vscode: .*$/m) },
	{ name: 'e2e', command: 'npm run --silent test:e2e', summary: out => lastLine(out, /^e2e: .*$/m) },
	{ name: 'outside', command: 'npm run --silent test:outside', summary: out => lastLine(out, /^outside: .*$/m), when: () => existsSync('scripts/outside/runOutsideChecks.ts') },
];

const only = process.env.TEST_PARTS?.split(',').map(s => s.trim()).filter(Boolean);
// A misspelt part would run nothing and pass.
const unknown = only?.filter(name => !parts.some(part => part.name === name)) ?? [];
if (unknown.length > 0) {
	console.error(`TEST_PARTS names no part called ${unknown.join(', ')}; the parts are ${parts.map(part => part.name).join(', ')}`);
	process.exit(2);
}

function mochaSummary(out: string): string {
	const passing = /(\d+) passing/.exec(out)?.[1] ?? '0';
	const failing = /(\d+) failing/.exec(out)?.[1] ?? '0';
	const time = /\d+ passing \(([^)]+)\)/.exec(out)?.[1] ?? '?';
	return `${passing} passing, ${failing} failing (${time})`;
}

function lastLine(out: string, pattern: RegExp): string {
	const matches = out.match(new RegExp(pattern.source, 'gm'));
	return matches ? matches[matches.length - 1].replace(/^\w+: /, '') : 'no summary printed';
}

/**
 * The failed tests a part's output names (mocha's numbered titles, the browser checks' ✘ lines,
 * the outside checks' FAIL lines), repeated under the summary: a CI log may keep only its end.
 */
function failedTests(out: string): string[] {
	const titles = new Map<string, string>();
	// A browser check's ✘ line is followed by its error's first line: both are kept.
	for (const line of out.match(/^ *(?:\d+\) |FAIL ).*$|^ *✘ .*(?:\n.*)?$/gm) ?? []) {
		const title = line.trim().replace(/\s*\n\s*/, ': ');
		// Mocha names a failure twice: its test title in the run, then "N) suite" in the details.
		const key = /^\d+\)/.exec(title)?.[0] ?? title;
		if (!titles.has(key)) { titles.set(key, title); }
	}
	return [...titles.values()].slice(0, 20);
}

function run(command: string): Promise<{ code: number; out: string }> {
	return new Promise(resolve => {
		const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '';
		child.stdout.on('data', d => {
			out += d;
			process.stdout.write(d);
		});
		child.stderr.on('data', d => {
			out += d;
			process.stderr.write(d);
		});
		child.on('close', code => resolve({ code: code ?? 1, out }));
	});
}

// The npm script installs the project's packages first (scripts/bootstrap/ensureDependencies.mjs).
const results: { name: string; ok: boolean; line: string; failed: string[] }[] = [];
for (const part of parts) {
	if ((only && !only.includes(part.name)) || (part.when && !part.when())) {
		continue;
	}
	console.log(`\n===== ${part.name} =====`);
	const started = performance.now();
	const { code, out } = await run(part.command);
	const seconds = ((performance.now() - started) / 1000).toFixed(1);
	results.push({ name: part.name, ok: code === 0, line: `${part.summary(out)} [${code === 0 ? 'ok' : `FAILED, exit ${code}`}, ${seconds}s]`, failed: code === 0 ? [] : failedTests(out) });
}

console.log('\n===== summary =====');
for (const r of results) {
	console.log(`${r.name}: ${r.line}`);
	for (const title of r.failed) {
		console.log(`    ${title}`);
	}
}
process.exit(results.every(r => r.ok) ? 0 : 1);
