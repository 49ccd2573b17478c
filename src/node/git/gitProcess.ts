import { execFile } from 'node:child_process';

const DEFAULT_TIMEOUT_MS = 15_000;
/** Budget for outputs that are parsed, not shown (status, log, refs). */
const PARSED_OUTPUT_LIMIT = 16 * 1024 * 1024;

export class GitCommandError extends Error {
	constructor(readonly args: readonly string[], readonly exitCode: number | string | undefined, readonly stderr: string) {
		super(`git ${args[0] ?? ''} failed (${exitCode ?? 'no exit code'}): ${stderr.trim().split('\n')[0] ?? ''}`);
		this.name = 'GitCommandError';
	}
}

/**
 * Runs the git binary: never a shell, never optional locks (a status must not rewrite the
 * index the watcher watches), never a repository's fsmonitor command, bounded output and time,
 * no pager, colour or prompts.
 */
export class GitCli {
	constructor(readonly gitPath = 'git', private readonly timeoutMs = DEFAULT_TIMEOUT_MS) {}

	run(cwd: string, args: readonly string[], maxBytes = PARSED_OUTPUT_LIMIT): Promise<{ stdout: string; truncated: boolean }> {
		const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C' };
		// Inherited repository overrides (a git hook's environment) would point every command
		// elsewhere, or (alternates) lend it another repository's commits.
		for (const key of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_NAMESPACE']) {
			delete env[key];
		}
		// A repository's own config is the folder's, not the user's: `core.fsmonitor` there names a
		// command git would run on every status and diff (diffs already refuse external drivers
		// and textconv; reads of the working tree switch off the repository's content filters, see
		// repositoryFilters.ts). Nothing a folder names runs.
		const fullArgs = ['--no-optional-locks', '-c', 'core.quotePath=false', '-c', 'color.ui=false', '-c', 'log.showSignature=false', '-c', 'core.fsmonitor=false', ...args];
		return new Promise((resolve, reject) => {
			execFile(this.gitPath, fullArgs, {
				cwd, env, encoding: 'buffer', maxBuffer: maxBytes, timeout: this.timeoutMs, killSignal: 'SIGKILL', windowsHide: true,
			}, (err, stdout, stderr) => {
				const out = Buffer.isBuffer(stdout) ? stdout : Buffer.from(stdout ?? '');
				if (err && (err as NodeJS.ErrnoException).code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
					resolve({ stdout: out.subarray(0, maxBytes).toString('utf8'), truncated: true });
				} else if (err) {
					const code = (err as NodeJS.ErrnoException).code;
					if (code === 'ENOENT' || code === 'EACCES') {
						reject(err); // git missing: the caller decides
					} else {
						reject(new GitCommandError(args, typeof code === 'number' ? code : (err as { killed?: boolean }).killed ? 'timeout' : code, String(stderr ?? '')));
					}
				} else {
					resolve({ stdout: out.toString('utf8'), truncated: false });
				}
			});
		});
	}
}
