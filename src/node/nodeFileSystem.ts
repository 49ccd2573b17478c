import { Dirent, promises as fs, Stats, statSync } from 'node:fs';
import { DirectoryEntry, EntryKind, FileInfo, FileSystemReader } from '../core/ports';

function kindOf(entry: Dirent | Stats): EntryKind {
	if (entry.isFile()) {
		return 'file';
	}
	if (entry.isDirectory()) {
		return 'directory';
	}
	if (entry.isSymbolicLink()) {
		return 'symlink';
	}
	return 'other';
}

function info(stats: Stats): FileInfo {
	return { kind: kindOf(stats), size: stats.size, mtimeMs: stats.mtimeMs };
}

/** Disk access through node:fs; used by both hosts (the extension runs next to the files). */
export class NodeFileSystem implements FileSystemReader {
	async readDirectory(dirPath: string): Promise<DirectoryEntry[]> {
		const entries = await fs.readdir(dirPath, { withFileTypes: true });
		return entries.map(e => ({ name: e.name, kind: kindOf(e) }));
	}
	async lstat(filePath: string): Promise<FileInfo> {
		return info(await fs.lstat(filePath));
	}
	async stat(filePath: string): Promise<FileInfo> {
		return info(await fs.stat(filePath));
	}
	realpath(filePath: string): Promise<string> {
		return fs.realpath(filePath);
	}
	readFile(filePath: string): Promise<Uint8Array> {
		return fs.readFile(filePath);
	}
	async statMany(filePaths: readonly string[]): Promise<(FileInfo | undefined)[]> {
		// Synchronous stats of one directory's files: a few microseconds each, where a
		// thread-pool round trip per file costs ten times that. Batches are one directory,
		// so the event loop is never held for long.
		return filePaths.map(p => {
			const stats = statSync(p, { throwIfNoEntry: false });
			return stats ? info(stats) : undefined;
		});
	}
}
