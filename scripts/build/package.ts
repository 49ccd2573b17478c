// `npm run package`: builds dist/mcp-workspace-resources.vsix. vsce walks every file under the
// folder it runs in before applying .vscodeignore, which takes minutes next to large caches
// (.cache/ holds code-server and bench workspaces), so it runs on a staging copy of exactly
// what ships: the same allowlist as .vscodeignore.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot as root } from '../bootstrap/repoRoot.mjs';

const shipped = ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'SECURITY.md', '.vscodeignore', 'media', 'dist/main.js', 'dist/cli.js', 'dist/claudeTokenizer.js', 'dist/walkWorker.js', 'dist/searchWorker.js', 'dist/signerWorker.js', 'dist/grammarWorker.js', 'dist/treeSitterRuntime.js', 'dist/grammars'];
const out = path.join(root, 'dist', 'mcp-workspace-resources.vsix');
const stage = mkdtempSync(path.join(os.tmpdir(), 'mwr-package-'));
try {
	for (const item of shipped) {
		cpSync(path.join(root, item), path.join(stage, item), { recursive: true });
	}
	const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
	execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--skip-license', '-o', out], { cwd: stage, stdio: 'inherit' });
} finally {
	rmSync(stage, { recursive: true, force: true });
}
