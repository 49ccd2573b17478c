// Loaded by mocha before any test (.mocharc*.json `require`): every headless host a test starts
// inherits this environment, so none keeps its search index under the user's real cache folder.
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwr-test-cache-'));
process.env.XDG_CACHE_HOME = dir;
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
