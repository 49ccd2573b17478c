import { FileSystemReader } from './ports';

/**
 * Whether `absPath` names what the files provider could list: a file, a link that leads to a
 * file, or nothing at all (a deleted file git still names, whose name alone is then judged). A
 * directory, a link to one, a link that leads nowhere or round in a loop is no resource, though
 * the rule's names and links alone pass it: git names such paths among its changes.
 */
export async function isFileOrGone(reader: FileSystemReader, absPath: string): Promise<boolean> {
	let own;
	try {
		own = await reader.lstat(absPath);
	} catch (err) {
		return isGone(err);
	}
	if (own.kind !== 'symlink') {
		return own.kind === 'file';
	}
	try {
		return (await reader.stat(absPath)).kind === 'file';
	} catch {
		return false; // dangling or looping: the link is there, and leads to nothing readable
	}
}

function isGone(err: unknown): boolean {
	const code = (err as NodeJS.ErrnoException | undefined)?.code;
	return code === 'ENOENT' || code === 'ENOTDIR';
}
