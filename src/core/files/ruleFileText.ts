import { FileSystemReader } from '../ports';

/** Past this size a rule file (`.gitignore`, an excludes file, a git config) is not read. */
export const MAX_RULE_FILE_BYTES = 32 * 1024 * 1024;

/**
 * The text of a rule file; null when it is missing, unreadable, larger than `maxBytes`, or not a
 * regular file (links followed): a folder can name a FIFO `.gitignore`, whose read would wait
 * for a writer forever and with it the index, or a device that never ends.
 */
export async function readRuleFileText(reader: FileSystemReader, filePath: string, maxBytes = MAX_RULE_FILE_BYTES): Promise<string | null> {
	try {
		const info = await reader.stat(filePath);
		if (info.kind !== 'file' || info.size > maxBytes) {
			return null;
		}
		return new TextDecoder().decode(await reader.readFile(filePath));
	} catch {
		return null;
	}
}
