import { FileSystemReader } from '../ports';

/** Git reads no pattern file larger than this (`PATTERN_MAX_FILE_SIZE` in its `dir.c`). */
export const MAX_RULE_FILE_BYTES = 100 * 1024 * 1024;

/**
 * A rule file's text (a `.gitignore`, `.git/info/exclude`, the user's excludes file or git
 * config); null, as git takes it, when it cannot be read (missing, unreadable), is no regular
 * file, or is over git's size limit. A folder's `.gitignore` may be a FIFO, a link to
 * `/dev/zero` or a sparse file of terabytes: read whole, those block a thread for good or fill
 * memory. The open file is checked, never the name (`readFileUpTo`).
 */
export async function readRuleFileText(reader: FileSystemReader, filePath: string): Promise<string | null> {
	try {
		const read = await reader.readFileUpTo(filePath, MAX_RULE_FILE_BYTES, () => true);
		return read.kind === 'ok' ? new TextDecoder().decode(read.bytes) : null;
	} catch {
		return null;
	}
}
