import * as assert from 'node:assert/strict';
import { lintAs } from './linter';

/**
 * Each layer rule of docs/architecture.md, proven by linting forbidden imports as if they stood in a
 * real file of that layer (and one allowed import, so a rule that forbids everything fails).
 */
const cases: { file: string; forbidden: string[]; allowed: string }[] = [
	{ file: 'src/common/event.ts', forbidden: ['../core/errors', '../version', '@modelcontextprotocol/sdk/types.js', '@modelcontextprotocol/server', 'vscode', 'node:fs', 'node:child_process', 'os'], allowed: './lifecycle' },
	{ file: 'src/core/registry.ts', forbidden: ['../mcp/session', '../node/nodeFileSystem', '../picker/filter', '../client/reconnectingClient', '../vscode/commands', '../cli', '../extension', '../version', '@modelcontextprotocol/sdk/types.js', '@modelcontextprotocol/server', 'vscode'], allowed: '../common/lifecycle' },
	{ file: 'src/core/files/fileFilter.ts', forbidden: ['../../mcp/errors', '../../vscode/vsCodeGit', '../../node/gitCli'], allowed: '../ports' },
	// "No host": Node's modules that reach files, processes, the network or the OS, in either spelling.
	{ file: 'src/core/uriGuard.ts', forbidden: ['node:fs', 'fs', 'node:fs/promises', 'node:child_process', 'child_process', 'node:net', 'node:http', 'node:os', 'node:process', 'node:worker_threads'], allowed: 'node:path' },
	{ file: 'src/core/uriGuard.ts', forbidden: ['node:readline', 'dns/promises', 'vm'], allowed: 'node:buffer' },
	{ file: 'src/mcp/server/mcpSession.ts', forbidden: ['../../picker/filter', '../../client/reconnectingClient', '../../node/bridge', '../../vscode/commands', '../../cli', '../../extension', '../../shims/mcpServerShims', 'vscode', '@modelcontextprotocol/client', '@modelcontextprotocol/client/stdio'], allowed: '../../core/registry' },
	{ file: 'src/client/reconnectingClient.ts', forbidden: ['../core/registry', '../picker/pickerService', '../node/bridge/bridge', '../vscode/commands', '../cli', '../extension', 'vscode', '@modelcontextprotocol/server', '@modelcontextprotocol/node', '../mcp/server/mcpSession', '../mcp/http/httpHost'], allowed: '@modelcontextprotocol/client' },
	{ file: 'src/client/lockFileDiscovery.ts', forbidden: ['../mcp/serverRunner'], allowed: '../mcp/lockFile' },
	{ file: 'src/client/clientErrors.ts', forbidden: [], allowed: '../mcp/http/authorization' },
	{ file: 'src/picker/filter.ts', forbidden: ['../core/registry', '../core/files/filesProvider', '../node/headless', '../vscode/commands', '../cli', 'vscode', '@modelcontextprotocol/server', '@modelcontextprotocol/node'], allowed: '../client/reconnectingClient' },
	{ file: 'src/picker/filter.ts', forbidden: [], allowed: '@modelcontextprotocol/client' },
	{ file: 'src/node/headless.ts', forbidden: ['../vscode/vsCodeGit', '../cli', '../extension', 'vscode'], allowed: '../core/registry' },
	{ file: 'src/vscode/commands.ts', forbidden: ['../extension', '../cli'], allowed: 'vscode' },
	{ file: 'src/vscode/picker/attach.ts', forbidden: ['../../extension', '../../cli'], allowed: '../../picker/contextBundle' },
	{ file: 'src/cli.ts', forbidden: ['./vscode/commands', './extension', './shims/mcpServerShims', 'vscode'], allowed: './mcp/http/httpHost' },
	{ file: 'src/extension.ts', forbidden: ['./cli', './shims/mcpClientShims'], allowed: 'vscode' },
	// The plain-Node tests load no editor code.
	{ file: 'test/unit/mcp/server/mcpSession.test.ts', forbidden: ['vscode', '../../../../src/vscode/commands', '../../../../src/extension'], allowed: '../../../../src/mcp/server/mcpSession' },
	// Loopholes: another layer reached under a name the folder rules would not see.
	{ file: 'src/core/registry.ts', forbidden: ['./../mcp/session', '../core/../mcp/session', './files/../../mcp/session', '../../src/mcp/session', '/work/src/mcp/session'], allowed: './files/fileFilter' },
];

/** Every form a module can be named in: each line must draw a layer error of its own. */
function everyForm(specifier: string): string {
	return [
		`import '${specifier}';`,
		`import type { A } from '${specifier}';`,
		`export * from '${specifier}';`,
		`export { b } from '${specifier}';`,
		`import c = require('${specifier}');`,
		`void import('${specifier}');`,
		`require('${specifier}');`,
		`type D = typeof import('${specifier}');`,
	].join('\n') + '\n';
}
const FORMS = everyForm('x').split('\n').length - 1;
const LAYER_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax', 'no-restricted-globals']);

describe('lint enforces the layers of design.md', function () {
	this.timeout(300_000);

	/** The layer rules' messages for `text` linted as if it were `file`. */
	async function layerErrors(file: string, text: string): Promise<{ line: number; message: string }[]> {
		return (await lintAs(file, text)).filter(m => m.ruleId !== null && LAYER_RULES.has(m.ruleId)).map(m => ({ line: m.line, message: m.message }));
	}

	async function importErrors(file: string, specifier: string): Promise<string[]> {
		return (await layerErrors(file, `import '${specifier}';\n`)).map(e => e.message);
	}

	for (const { file, forbidden, allowed } of cases) {
		it(`${file}: refuses ${forbidden.join(', ') || 'nothing more'}; allows ${allowed}`, async () => {
			for (const specifier of forbidden) {
				assert.equal((await importErrors(file, specifier)).length, 1, `${specifier} in ${file}`);
				const lines = new Set((await layerErrors(file, everyForm(specifier))).map(e => e.line));
				assert.deepEqual([...lines].sort((a, b) => a - b), Array.from({ length: FORMS }, (_, i) => i + 1), `every form of ${specifier} in ${file}`);
			}
			assert.deepEqual(await importErrors(file, allowed), [], `${allowed} in ${file}`);
			assert.deepEqual(await layerErrors(file, everyForm(allowed)), [], `every form of ${allowed} in ${file}`);
		});
	}

	it('lets src/vscode/** import vscode', async () => {
		assert.deepEqual(await importErrors('src/vscode/commands.ts', 'vscode'), []);
	});

	it('refuses an import() or require() whose module is computed, as no rule could read it', async () => {
		const errors = await layerErrors('src/picker/filter.ts', "const name = 'vscode';\nvoid import(name);\nrequire(`${name}`);\n");
		assert.deepEqual(errors.map(e => e.line), [2, 3]);
	});

	it("refuses Node's process object in core/ and common/ (no host), not in mcp/", async () => {
		const text = 'export const home = process.env.HOME;\n';
		assert.equal((await layerErrors('src/core/registry.ts', text)).length, 1);
		assert.equal((await layerErrors('src/common/event.ts', text)).length, 1);
		assert.deepEqual(await layerErrors('src/mcp/server/mcpSession.ts', text), []);
	});
});
