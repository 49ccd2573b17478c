import { closeSync, constants as fsConstants, Dirent, fstatSync, lstatSync, openSync, promises as fs, readlinkSync, readSync, realpathSync, Stats, statSync } from 'node:fs';
import { DirectoryEntry, EntryKind, FileInfo, FileSystemReader, ListedRead, ReadResult, ReadScratch } from '../core/ports';

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

/** Options of the index's stats: a vanished file is an answer, not an error. */
const MAY_BE_GONE = { throwIfNoEntry: false } as const;

function info(stats: Stats): FileInfo {
	return { kind: kindOf(stats), size: stats.size, mtimeMs: stats.mtimeMs };
}

/** Disk access through node:fs; used by both hosts (the extension runs next to the files). */
export class NodeFileSystem implements FileSystemReader {
	async readDirectory(dirPath: string): Promise<DirectoryEntry[]> {
		const entries = await fs.readdir(dirPath, { withFileTypes: true });
		// A literal and pushes, not `map`: arrays from one literal share their shape once the
		// engine has seen them filled, also when empty, so the walk's loops over them are
		// optimized once (an empty array from `map` has another shape and undid that).
		const children: DirectoryEntry[] = [];
		for (const entry of entries) {
			children.push({ name: entry.name, kind: kindOf(entry) });
		}
		return children;
	}
	async lstat(filePath: string): Promise<FileInfo> {
		// One lstat(2) call, as `realpath`: the index looks at every path a watcher batch names,
		// and a branch switch names thousands; a thread-pool round trip per path was the largest
		// item of the switch's profile.
		return info(lstatSync(filePath));
	}
	async stat(filePath: string): Promise<FileInfo> {
		return info(await fs.stat(filePath));
	}
	async realpath(filePath: string): Promise<string> {
		// One realpath(3) call; the promise API costs a thread-pool round trip per call and
		// showed up as the top item of a read-heavy profile.
		return realpathSync.native(filePath);
	}
	async readFileUpTo(filePath: string, maxBytes: number, accept: (realPath: string) => boolean | Promise<boolean>): Promise<ReadResult> {
		// Synchronous on purpose: files are capped (1 MB by default) and in the page cache
		// almost always, where four awaited calls (open, fstat, read, close) cost more than
		// the read itself. O_NONBLOCK keeps a FIFO that replaced the file from hanging us.
		const fd = openSync(filePath, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
		try {
			const stats = fstatSync(fd);
			const realPath = openedPath(fd, filePath, stats);
			if (realPath === undefined) {
				return { kind: 'refused' };
			}
			const verdict = accept(realPath);
			// Awaited only when the check needs the disk (a link's target): the common case stays synchronous.
			if (!(typeof verdict === 'boolean' ? verdict : await verdict)) {
				return { kind: 'refused' };
			}
			return readOpened(fd, stats, maxBytes, size => Buffer.allocUnsafe(size));
		} finally {
			closeSync(fd);
		}
	}

	async readListedFile(filePath: string, maxBytes: number, scratch: ReadScratch, listedSize?: number): Promise<ListedRead> {
		return readListedFileSync(filePath, maxBytes, scratch, listedSize);
	}

	async statMany(filePaths: readonly string[]): Promise<(FileInfo | undefined)[]> {
		// Synchronous stats of one directory's files: each is cheap next to a thread-pool
		// round trip per file. Batches are one directory, so the event loop is never held for long.
		// A literal and pushes, not `map`, as in `readDirectory`.
		const infos: (FileInfo | undefined)[] = [];
		for (const p of filePaths) {
			const stats = statSync(p, MAY_BE_GONE);
			infos.push(stats ? info(stats) : undefined);
		}
		return infos;
	}
}

/**
 * Reads a file the search index listed into `scratch` (grown when too small): the index's own
 * thread and its signer threads read every file of the tree this way, synchronously (a batch's
 * files one after the other into one buffer), and sign the bytes before the next read. A buffer
 * per file left the heap and malloc's arenas holding far more than the files in flight.
 */
export function readListedFileSync(filePath: string, maxBytes: number, scratch: ReadScratch, listedSize?: number): ListedRead {
	const { fd, named } = openListed(filePath);
	try {
		if (named && listedSize !== undefined && listedSize <= maxBytes) {
			const bytes = readListedSize(fd, listedSize, scratch);
			if (bytes) {
				return { result: { kind: 'ok', bytes } };
			}
		}
		const stats = fstatSync(fd);
		const realPath = named ? undefined : openedPath(fd, filePath, stats);
		if (!named && realPath === undefined) {
			return { result: { kind: 'refused' } };
		}
		const result = readOpened(fd, stats, maxBytes, size => scratchOf(scratch, size));
		return { result, realPath };
	} finally {
		closeSync(fd);
	}
}

/**
 * The file's bytes when it holds exactly `listedSize` of them (one read asked for one byte more
 * came back with `listedSize`), else undefined: then the caller asks the file's size (fstat) as
 * for any other. A file listed by its stat costs one read and no stat this way.
 */
function readListedSize(fd: number, listedSize: number, scratch: ReadScratch): Buffer | undefined {
	const buffer = scratchOf(scratch, listedSize + 1);
	let n: number;
	try {
		n = readSync(fd, buffer, 0, listedSize + 1, 0);
	} catch {
		return undefined; // not a file any more (a folder, a pipe): the stat says so
	}
	return n === listedSize ? buffer.subarray(0, n) : undefined;
}

/** The scratch buffer, grown (at least doubled) first if it holds fewer than `size` bytes. */
function scratchOf(scratch: ReadScratch, size: number): Buffer {
	if (scratch.buffer.length < size) {
		scratch.buffer = Buffer.allocUnsafeSlow(Math.max(size, scratch.buffer.length * 2));
	}
	return scratch.buffer;
}

/**
 * Opens a file the index lists. Its last part must not be a link (O_NOFOLLOW): the file is then
 * the one named in the listed folder, and nothing asks the kernel where it is; a link (ELOOP) is
 * opened through, and `named` is false so that the caller asks. A folder on the way swapped for
 * a link after the listing is not caught here: the watcher reports it and the index drops what
 * was read under it, and no text read this way reaches a client (answers are read again through
 * `readFileUpTo`, which checks the opened file's real path).
 */
function openListed(filePath: string): { fd: number; named: boolean } {
	try {
		return { fd: openSync(filePath, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK | fsConstants.O_NOFOLLOW), named: true };
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code !== 'ELOOP') {
			throw err;
		}
	}
	return { fd: openSync(filePath, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK), named: false };
}

/** The bytes of an opened file (a regular one, of at most `maxBytes`) into the buffer `target` gives. */
function readOpened(fd: number, stats: Stats, maxBytes: number, target: (size: number) => Buffer): ReadResult {
	if (!stats.isFile()) {
		return { kind: 'not-a-file' };
	}
	if (stats.size > maxBytes) {
		return { kind: 'too-large', size: stats.size };
	}
	const buffer = target(stats.size);
	let offset = 0;
	while (offset < stats.size) {
		const n = readSync(fd, buffer, offset, stats.size - offset, offset);
		if (n === 0) {
			break; // truncated while reading
		}
		offset += n;
	}
	return { kind: 'ok', bytes: buffer.subarray(0, offset) };
}

const DELETED = ' (deleted)';

/**
 * The real path of the file behind an open descriptor, or undefined when it cannot be known.
 * Linux names it (`/proc/self/fd`); elsewhere the name is resolved and accepted only if it
 * leads to the very file that was opened (same device and inode), so a swap after the open
 * is refused rather than trusted.
 */
function openedPath(fd: number, filePath: string, opened: Stats): string | undefined {
	if (process.platform === 'linux') {
		try {
			const link = readlinkSync(`/proc/self/fd/${fd}`);
			if (link.startsWith('/')) {
				// A file replaced since the open (an editor's atomic save) keeps its last name,
				// marked deleted: that name is where it was, and is what gets checked.
				return opened.nlink === 0 && link.endsWith(DELETED) ? link.slice(0, -DELETED.length) : link;
			}
		} catch {
			// /proc not mounted: fall through to the portable check.
		}
	}
	if (opened.nlink === 0) {
		return undefined; // no name leads to it any more
	}
	try {
		const realPath = realpathSync.native(filePath);
		const named = statSync(realPath);
		return named.dev === opened.dev && named.ino === opened.ino ? realPath : undefined;
	} catch {
		return undefined;
	}
}
