// Where the benches keep the workspaces they generate between runs: outside this repository.
// Inside it they would sit under its ignored .cache/, and the server applies the .gitignore files
// above an opened folder as git does: it would serve nothing of them.
// MCPWR_BENCH_WORKSPACES names another place (a bigger disk for the million-file tree).
import * as os from 'node:os';
import * as path from 'node:path';

export const BENCH_WORKSPACES = process.env.MCPWR_BENCH_WORKSPACES ?? path.join(os.homedir(), '.cache', 'mcp-workspace-resources-bench');
