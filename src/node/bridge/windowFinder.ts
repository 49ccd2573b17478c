import * as path from 'node:path';
import { Logger } from '../../common/logger';
import { shellFor } from '../shellSyntax';
import { LockFileContent } from '../../mcp/lockFile';
import { findLockFile, readLockFiles } from '../../client/lockFileDiscovery';

/**
 * Finds the window (or headless host) that serves a folder, read afresh from the lock files on
 * every look (a restarted window has a new port and token).
 */
export class WindowFinder {
	/** Skipped lock files already reported: the bridge looks again on every reconnect. */
	private readonly reported = new Set<string>();

	constructor(private readonly workspace: string, private readonly home: string, private readonly log: Logger) {}

	find(): Promise<LockFileContent | undefined> {
		return findLockFile(this.workspace, this.home, message => this.reportOnce(message));
	}

	/** Why there is no window for the folder, and what the user can do about it. */
	async describeMissing(): Promise<string> {
		const running = await readLockFiles(this.home, message => this.reportOnce(message));
		const where = running.length === 0
			? 'No MCP Workspace Resources server is running for this user'
			: `Running servers serve: ${running.flatMap(l => l.workspaceFolders).join(', ')}`;
		return `no running VS Code window or headless server has ${this.workspace} open. ${where}. ` +
			'Open the folder in VS Code with the MCP Workspace Resources extension (and trust the workspace), ' +
			`or run: ${serveCommand(this.workspace)}. Lock files are read from ${path.join(this.home, 'servers')}.`;
	}

	private reportOnce(message: string): void {
		if (!this.reported.has(message)) {
			this.reported.add(message);
			this.log.warn(message);
		}
	}
}

/**
 * The headless host on `folder`, as a command to paste into a shell: this same CLI run by node
 * (an extension installed from a .vsix puts no `mcp-workspace-resources` on the PATH), quoted.
 */
function serveCommand(folder: string): string {
	return ['node', process.argv[1] ?? 'dist/cli.js', 'serve', '--root', folder, '--http'].map(shellFor(process.platform).quote).join(' ');
}

/** A window as the log names it. */
export function describeWindow(lock: LockFileContent): string {
	const kind = lock.host === 'vscode' ? 'VS Code window' : 'headless server';
	return `${kind} (pid ${lock.pid}) at ${lock.url} for ${lock.workspaceFolders.join(', ')}`;
}
