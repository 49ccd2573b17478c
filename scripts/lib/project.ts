// Project-side steps shared by the runners: build the extension, compile the tests, make a
// throwaway workspace (fixture copy + real git repository) and a private MCP discovery home.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import { ProvisionError } from './vscodeEnv.js';
import { interruption, npmCommand as npm, npxCommand as npx, runCommand } from './processes.js';

export const fixtureDir = path.join(repoRoot, 'test', 'vscode', 'fixture-workspace');
export const vsixPath = path.join(repoRoot, 'dist', 'mcp-workspace-resources.vsix');
/** Files generated into every fixture copy, so `resources/list` needs more than one page. */
export const GENERATED_FILE_COUNT = 300;


const processStart = Date.now();
/** Progress line with the seconds since the runner started. */
export function step(message: string): void {
	process.stderr.write(`[harness +${((Date.now() - processStart) / 1000).toFixed(1)}s] ${message}\n`);
}

export async function buildExtension(): Promise<void> {
	step('npm run build');
	await runCommand(npm, ['run', 'build', '--silent'], { cwd: repoRoot });
	if (!fs.existsSync(path.join(repoRoot, 'dist', 'main.js'))) {
		throw new Error('npm run build produced no dist/main.js');
	}
}

export async function compileTests(): Promise<string> {
	step('npx tsc -p tsconfig.test.json');
	// Incremental, with the build info inside out/ so deleting out/ forces a full emit.
	await runCommand(npx, ['tsc', '-p', 'tsconfig.test.json', '--incremental', '--tsBuildInfoFile', path.join('out', '.tsbuildinfo-test')], { cwd: repoRoot });
	const index = path.join(repoRoot, 'out', 'test', 'vscode', 'index.js');
	if (!fs.existsSync(index)) { throw new Error(`tsc produced no ${index}`); }
	return index;
}

export async function packageExtension(): Promise<string> {
	step('npm run package');
	fs.rmSync(vsixPath, { force: true });
	await runCommand(npm, ['run', 'package', '--silent'], { cwd: repoRoot });
	if (!fs.existsSync(vsixPath)) { throw new Error(`npm run package produced no ${vsixPath}`); }
	return vsixPath;
}

function git(cwd: string, ...args: string[]): Promise<string> {
	return runCommand('git', ['-c', 'user.name=Fixture', '-c', 'user.email=fixture@example.invalid',
		'-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
		cwd, stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
	});
}

/**
 * Copies the fixture into a new temp folder, adds generated files (many small ones, a binary,
 * a secret, a git-ignored one) and commits the tracked ones with real git.
 */
export async function makeFixtureWorkspace(): Promise<{ dir: string; remove(): void }> {
	const parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwr-ws-')));
	const dir = path.join(parent, 'fixture-workspace');
	fs.cpSync(fixtureDir, dir, { recursive: true });
	fs.mkdirSync(path.join(dir, 'many'));
	for (let i = 0; i < GENERATED_FILE_COUNT; i++) {
		fs.writeFileSync(path.join(dir, 'many', `file-${String(i).padStart(3, '0')}.txt`), `generated file ${i}\n`);
	}
	fs.mkdirSync(path.join(dir, 'assets'));
	fs.writeFileSync(path.join(dir, 'assets', 'bytes.bin'), Buffer.from(Array.from({ length: 256 }, (_, i) => i)));
	await git(dir, 'init', '-q');
	await git(dir, 'add', '-A');
	await git(dir, 'commit', '-q', '-m', 'fixture');
	// Never committed: a secret (deny-listed) and a git-ignored file.
	fs.writeFileSync(path.join(dir, '.env'), 'FIXTURE_SECRET=not-a-real-secret\n');
	fs.writeFileSync(path.join(dir, 'ignored.log'), 'ignored by .gitignore\n');
	return { dir, remove: () => fs.rmSync(parent, { recursive: true, force: true }) };
}

/** A private MCP discovery home (`MCP_WORKSPACE_RESOURCES_HOME`). */
export function makeMcpHome(): { dir: string; remove(): void } {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwr-home-'));
	return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** `<label>: <passing> passing, <failing> failing (<seconds>s)` */
export function summaryLine(label: string, passing: number, failing: number, startedAt: number): string {
	return `${label}: ${passing} passing, ${failing} failing (${((Date.now() - startedAt) / 1000).toFixed(1)}s)`;
}

/**
 * How a runner ends: runs `main` (resolving `{ passing, failing, code? }`), cleans up, prints
 * the summary line and exits (`code`, else 1 when anything failed or nothing passed). An
 * interrupt is left to the interrupt handler, which cleans up and exits with 128+signal.
 */
export interface RunResult { passing: number; failing: number; code?: number }

export async function finishRun({ label, main, cleanup, startedAt }: { label: string; main(): Promise<RunResult>; cleanup(): Promise<void>; startedAt: number }): Promise<never> {
	const waitForInterruptHandler = () => new Promise<never>(() => { /* the interrupt handler exits */ });
	let result: RunResult;
	try {
		result = await main();
	} catch (err) {
		if (interruption()) { await cleanup(); await waitForInterruptHandler(); }
		console.error(`[${label}] FAILED: ${err instanceof ProvisionError ? err.message : err instanceof Error ? err.stack : String(err)}`);
		result = { passing: 0, failing: 1 };
	}
	await cleanup();
	if (interruption()) { await waitForInterruptHandler(); }
	console.log(summaryLine(label, result.passing, result.failing, startedAt));
	process.exit(result.code ?? (result.failing > 0 || result.passing === 0 ? 1 : 0));
}
