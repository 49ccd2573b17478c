// `npm run package`: builds dist/mcp-workspace-resources.vsix. vsce walks every file under the
// folder it runs in before applying .vscodeignore, which takes minutes next to large caches
// (.cache/ holds code-server and bench workspaces), so it runs on a staging copy of exactly
// what ships: the same allowlist as .vscodeignore.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot as root } from '../bootstrap/repoRoot.mjs';

const shipped = ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'SECURITY.md', '.vscodeignore', 'media', 'dist/extension.js', 'dist/cli.js', 'dist/serveStdio.js', 'dist/serveHttp.js', 'dist/bridgeCommand.js', 'dist/claudeTokenizer.js', 'dist/walkWorker.js', 'dist/searchWorker.js'];
const out = path.join(root, 'dist', 'mcp-workspace-resources.vsix');
const stage = mkdtempSync(path.join(os.tmpdir(), 'mwr-package-'));
try {
	for (const item of shipped) {
		cpSync(path.join(root, item), path.join(stage, item), { recursive: true });
	}
	const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
	if (!manifest.repository) {
		// vsce needs absolute image URLs (it derives them from `repository`). Until the project
		// has a published repository, the packaged README goes without the screenshots (list items' indented ones too).
		const readme = path.join(stage, 'README.md');
		writeFileSync(readme, readFileSync(readme, 'utf8').replace(/^[ \t]*!\[[^\]]*\]\(media\/[^)]+\)\n\n?/gm, ''));
	}
	const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
	execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', out], { cwd: stage, stdio: 'inherit' });
} finally {
	rmSync(stage, { recursive: true, force: true });
}
