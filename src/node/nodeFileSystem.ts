import { closeSync, constants as fsConstants, Dirent, fstatSync, openSync, promises as fs, readSync, realpathSync, Stats, statSync } from 'node:fs';
import { DirectoryEntry, EntryKind, FileInfo, FileSystemReader, ReadResult } from '../core/ports';

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
	async realpath(filePath: string): Promise<string> {
		// One realpath(3) call; the promise API costs a thread-pool round trip per call and
		// showed up as the top item of a read-heavy profile.
		return realpathSync.native(filePath);
	}
	readFile(filePath: string): Promise<Uint8Array> {
		return fs.readFile(filePath);
	}
	async readFileUpTo(filePath: string, maxBytes: number): Promise<ReadResult> {
		// Synchronous on purpose: files are capped (1 MB by default) and in the page cache
		// almost always, where four awaited calls (open, fstat, read, close) cost more than
		// the read itself. O_NONBLOCK keeps a FIFO that replaced the file from hanging us.
		const fd = openSync(filePath, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
		try {
			const stats = fstatSync(fd);
			if (!stats.isFile()) {
				return { kind: 'not-a-file' };
			}
			if (stats.size > maxBytes) {
				return { kind: 'too-large', size: stats.size };
			}
			const buffer = Buffer.allocUnsafe(stats.size);
			let offset = 0;
			while (offset < stats.size) {
				const n = readSync(fd, buffer, offset, stats.size - offset, offset);
				if (n === 0) {
					break; // truncated while reading
				}
				offset += n;
			}
			return { kind: 'ok', bytes: buffer.subarray(0, offset) };
		} finally {
			closeSync(fd);
		}
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
