import * as assert from 'node:assert/strict';
import { register } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

interface Frame { callFrame: { functionName: string; url: string } }
interface ProfileOwnersModule {
	scriptOwner(url: string): string | undefined;
	sampleOwner(stack: readonly Frame[]): string;
}

// The bench's tooling is TypeScript that runs through its own loader: load it the same way.
const scripts = path.join(__dirname, '../../../../scripts');
async function loadScript<T>(relative: string): Promise<T> {
	register(pathToFileURL(path.join(scripts, 'bootstrap', 'typescriptHooks.mjs')).href);
	return await import(pathToFileURL(path.join(scripts, relative)).href) as T;
}

const VSCODE = 'file:///env/node_modules/code-server/lib/vscode';
const frame = (functionName: string, url = ''): Frame => ({ callFrame: { functionName, url } });
const ours = frame('apply', 'file:///tmp/cs/extensions/mcp-workspace-resources.mcp-workspace-resources-0.1.0/dist/main.js');
const git = frame('exec', `${VSCODE}/extensions/git/dist/main.js`);
const json = frame('register', `${VSCODE}/extensions/json-language-features/client/dist/node/jsonClientMain.js`);
const host = frame('fire', `${VSCODE}/out/vs/workbench/api/node/extensionHostProcess.js`);
const proxyAgent = frame('getOrLoadAdditionalCertificates', `${VSCODE}/node_modules/@vscode/proxy-agent/out/index.js`);

// scripts/bench/profileOwners.ts: whose code a sample of the extension host's CPU profile is.
describe('scripts: the owners of CPU profile samples', () => {
	let owners: ProfileOwnersModule;
	before(async () => {
		owners = await loadScript<ProfileOwnersModule>('bench/profileOwners.ts');
	});

	it('tells our bundle from other extensions\' bundles of the same name, and from VS Code\'s own scripts', () => {
		assert.equal(owners.scriptOwner(ours.callFrame.url), 'ours');
		assert.equal(owners.scriptOwner('file:///tmp/cs/extensions/vscode.github-authentication/dist/extension.js'), 'ext:vscode.github-authentication');
		assert.equal(owners.scriptOwner(git.callFrame.url), 'ext:git');
		// The headless CLI from a checkout: its bundle has the name VS Code's git bundle has.
		assert.equal(owners.scriptOwner('file:///work/checkout/dist/main.js'), 'ours');
		assert.equal(owners.scriptOwner(host.callFrame.url), 'vscode');
		assert.equal(owners.scriptOwner(proxyAgent.callFrame.url), 'vscode');
		assert.equal(owners.scriptOwner('node:internal/child_process'), undefined);
	});

	it('gives a sample to the nearest extension on its stack, VS Code\'s code called by it included', () => {
		assert.equal(owners.sampleOwner([frame('spawn'), git, host]), 'ext:git');
		assert.equal(owners.sampleOwner([host, ours, host]), 'ours');
		assert.equal(owners.sampleOwner([frame('register'), json, ours]), 'ext:json-language-features');
	});

	it('gives VS Code what no extension called, and names what only the runtime did', () => {
		assert.equal(owners.sampleOwner([frame('X509Certificate'), proxyAgent]), 'vscode');
		assert.equal(owners.sampleOwner([frame('(garbage collector)')]), 'gc');
		assert.equal(owners.sampleOwner([frame('(program)')]), 'program');
		assert.equal(owners.sampleOwner([frame('callFinishedCallbacks', 'node:internal/streams/writable'), frame('processTicksAndRejections', 'node:internal/process/task_queues')]), 'node:callFinishedCallbacks');
	});
});
