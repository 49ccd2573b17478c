import * as path from 'node:path';
import { FileInfo, FileSystemReader } from '../ports';
import { fileUri } from '../uriGuard';
import { FileFilter } from './fileFilter';
import { Located, WorkspaceRoots } from './workspaceRoots';

/**
 * Links leading nowhere remembered at once: each is looked at again (an lstat and a realpath)
 * whenever a batch of changes adds or removes files, so their number is kept small.
 */
const MAX_DANGLING = 256;
/** Where a dangling link leads, in `linksTo`. */
const NOWHERE = '';

/**
 * The symlinks of an index's files: those refused for where they lead (outside, or to something
 * not served), and those served as the file they lead to, by that file's URI. A watcher reports
 * a change to a file, never to the links that lead to it, though a link's listing (size, time),
 * content and presence change with it: the index looks its links up here. A link that leads
 * nowhere is remembered too (up to a bound): its file may come back (a branch switch).
 */
export class ServedLinks {
	private readonly refused = new Set<string>();
	private readonly targetOf = new Map<string, string>();
	private readonly linksTo = new Map<string, Set<string>>();

	constructor(private readonly reader: FileSystemReader, private readonly roots: WorkspaceRoots, private readonly filter: FileFilter) {}

	/** How many links lead to a file or nowhere. */
	get size(): number {
		return this.targetOf.size;
	}

	/**
	 * What to list for a file the rules serve by its name: its own stat, or for a link its
	 * target's, or undefined when the link leads to a directory, outside the workspace, to
	 * something not served, or nowhere.
	 */
	async statOf(located: Located, info: FileInfo): Promise<FileInfo | undefined> {
		if (info.kind !== 'symlink') {
			return info.kind === 'file' ? info : undefined;
		}
		const absPath = path.join(located.folder.path, located.rel);
		const uri = fileUri(absPath);
		this.lead(absPath, undefined);
		let realPath: string;
		try {
			realPath = await this.reader.realpath(absPath);
		} catch {
			this.lead(absPath, NOWHERE);
			return undefined; // dangling or looping link
		}
		const target = this.roots.locateReal(realPath);
		if (!target || this.filter.isIgnored(target.folder, target.rel, false)) {
			this.refused.add(uri);
			return undefined;
		}
		this.refused.delete(uri);
		const stat = await this.reader.stat(absPath).catch(() => undefined);
		if (stat?.kind !== 'file') {
			return undefined;
		}
		this.lead(absPath, fileUri(path.join(target.folder.path, target.rel)));
		return stat;
	}

	/** Forgets what was known of `absPath` (whose URI is `uri`) as a link: it is gone, or no longer a link. */
	forget(absPath: string, uri: string): void {
		this.refused.delete(uri);
		this.lead(absPath, undefined);
	}

	/**
	 * True when the path, or a directory above it, is a symlink refused for where it leads:
	 * names alone cannot tell, and synchronous callers cannot resolve links.
	 */
	isBehindRefused(absPath: string): boolean {
		if (this.refused.size === 0) {
			return false;
		}
		const uri = fileUri(absPath);
		for (let end = uri.length; end > 'file://'.length; end = uri.lastIndexOf('/', end - 1)) {
			if (this.refused.has(uri.slice(0, end))) {
				return true;
			}
		}
		return false;
	}

	/** The paths of the links that lead to any of the files `uris`. */
	leadingTo(uris: readonly string[]): string[] {
		const found: string[] = [];
		for (const uri of uris) {
			if (uri !== NOWHERE) {
				this.linksTo.get(uri)?.forEach(link => found.push(link));
			}
		}
		return found;
	}

	/** The paths of the links that led nowhere when last looked at. */
	dangling(): string[] {
		return [...this.linksTo.get(NOWHERE) ?? []];
	}

	/** What a walk elsewhere hands back: the refused links' URIs, and every other link with where it leads, flat. */
	handOver(): { refusedLinks: string[]; links: string[] } {
		return { refusedLinks: [...this.refused], links: [...this.targetOf].flat() };
	}

	/** Adopts another index's `handOver()`. */
	adopt(walked: { readonly refusedLinks: readonly string[]; readonly links: readonly string[] }): void {
		walked.refusedLinks.forEach(uri => this.refused.add(uri));
		for (let i = 0; i + 1 < walked.links.length; i += 2) {
			this.lead(walked.links[i], walked.links[i + 1]);
		}
	}

	/** Records where the link at `absPath` leads (a file's URI, or NOWHERE); undefined forgets it. */
	private lead(absPath: string, to: string | undefined): void {
		const before = this.targetOf.get(absPath);
		if (before === to) {
			return;
		}
		if (before !== undefined) {
			this.targetOf.delete(absPath);
			const links = this.linksTo.get(before)!;
			links.delete(absPath);
			if (links.size === 0) {
				this.linksTo.delete(before);
			}
		}
		if (to === undefined || (to === NOWHERE && (this.linksTo.get(NOWHERE)?.size ?? 0) >= MAX_DANGLING)) {
			return;
		}
		this.targetOf.set(absPath, to);
		let links = this.linksTo.get(to);
		if (!links) {
			links = new Set();
			this.linksTo.set(to, links);
		}
		links.add(absPath);
	}
}
