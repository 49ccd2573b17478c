import { EventLoopSlices } from '../files/eventLoopSlices';
import { fileUri } from '../uriGuard';
import { ScopedPath, WorkspaceScope } from '../workspaceScope';

/** A path the scope serves, as relevance names it. */
export interface LocatedFile {
	readonly scoped: ScopedPath;
	readonly uri: string;
}

/** `scope.locate` and the URI of what it found; null when the path is not served. */
export function locateFile(scope: WorkspaceScope, absPath: string): LocatedFile | null {
	const scoped = scope.locate(absPath);
	return scoped ? { scoped, uri: fileUri(scoped.absPath) } : null;
}

/**
 * Where a set of paths stands in the scope (served, and a file or gone), worked out ahead of the
 * rankings that use it, a few milliseconds at a time. During a branch switch git names thousands
 * of changed files at every status read; locating all of them again at every re-ranking (the
 * rule's `.gitignore` checks and a URI each) held the event loop at every re-ranking.
 */
export class LocatedPaths {
	private located = new Map<string, LocatedFile | null>();
	private generation = 0;
	private readonly slices = new EventLoopSlices();

	constructor(private readonly scope: WorkspaceScope) {}

	/** The answer worked out for `absPath`, or undefined when it is not one of the paths. */
	get(absPath: string): LocatedFile | null | undefined {
		return this.located.get(absPath);
	}

	/** Forgets every answer (the rule changed) and abandons a `locate` under way. */
	clear(): void {
		this.generation++;
		this.located = new Map();
	}

	/**
	 * Locates `paths` once the scope is ready, then makes them the set answered for; false (and
	 * the previous set kept) when a later `locate` or a `clear` came meanwhile.
	 */
	async locate(paths: readonly string[]): Promise<boolean> {
		const generation = ++this.generation;
		await this.scope.ready();
		const located = new Map<string, LocatedFile | null>();
		for (const absPath of paths) {
			const wait = this.slices.pause();
			if (wait) {
				await wait;
			}
			if (generation !== this.generation) {
				return false;
			}
			const found = locateFile(this.scope, absPath);
			// Git names links to folders and links that lead nowhere among its changes: their names
			// pass the rule, and neither is a file a client can read.
			located.set(absPath, found && await this.scope.isFileOrGone(absPath) ? found : null);
		}
		if (generation !== this.generation) {
			return false;
		}
		this.located = located;
		return true;
	}
}
