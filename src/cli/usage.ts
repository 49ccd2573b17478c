import { DEFAULT_MAX_FILE_SIZE } from '../core/ports';
import { VERSION } from '../version';

/** `--help` for every command, and the text after any usage error. */
export const USAGE = `mcp-workspace-resources ${VERSION}

Usage:
  node dist/cli.js serve --root DIR [--root DIR ...] (--stdio | --http [--port N]) [options]

Serves the files under each DIR as MCP resources, without an editor.

  --root DIR            a folder to serve (repeat for several)
  --stdio               speak MCP on stdin/stdout (for clients that start the server)
  --http                serve Streamable HTTP on 127.0.0.1; prints {"url","token"} as the first stdout line
  --port N              port for --http (default: a free port chosen by the OS)
  --exclude GLOB        also hide paths matching GLOB, relative to each root (repeatable)
  --secret PATTERN      add a .gitignore-style pattern to the secrets deny-list (repeatable)
  --no-gitignore        serve files that .gitignore ignores (secrets stay hidden)
  --max-file-size BYTES largest file resources/read returns (default ${DEFAULT_MAX_FILE_SIZE})
                        (a whole read answers at most 4 MB whatever this says: larger text
                        files read in ranges, ?lines=N-M, up to 16 MB)
  --no-tools            offer no tools (tools/list empty): only resources reach clients
  --log-level LEVEL     debug | info | warn | error (default info; logs go to stderr)
  --cache-dir DIR       keep the search index in DIR between runs (default: under $XDG_CACHE_HOME
                        or ~/.cache, mcp-workspace-resources/search/<hash of the roots>)
  --no-cache            keep no search index between runs (nothing is written)
  -h, --help            show this help
  -v, --version         print the version

  node dist/cli.js bridge [--workspace DIR] [--log-level LEVEL]

Speaks MCP on stdin/stdout and relays to the running VS Code window (or headless --http server)
whose workspace contains DIR (default: the current directory), found through the lock files in
$MCP_WORKSPACE_RESOURCES_HOME (default ~/.mcp-workspace-resources). For clients that only start
stdio servers (Claude Desktop, ...). Follows the window across restarts. Exits 1 when no window
serves DIR, or the one that does does not answer.
`;

/** A command line we cannot run: exit 2 with the message and {@link USAGE}. */
export class UsageError extends Error {}
