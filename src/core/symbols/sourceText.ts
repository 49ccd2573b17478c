import * as path from 'node:path';
import { ResourceNotFound, ResourceTooLarge } from '../errors';
import { ResourceProvider } from '../resource';
import { fileUri } from '../uriGuard';

/** The files provider's reads: the one served-or-not rule, and the editor's unsaved text where there is one. */
export type FileTextReads = Pick<ResourceProvider, 'read' | 'onDidChange'>;

/** What reading a file's text for its grammar came to. */
export type SourceText =
	| { readonly kind: 'text'; readonly text: string }
	/** Not served, or no such file: as unknown as any other path. */
	| { readonly kind: 'not-found' }
	/** Binary, or over the read cap: no text to parse. */
	| { readonly kind: 'no-text' };

/** A file's text through the files provider, so grammars parse exactly what a read returns. */
export async function sourceText(files: FileTextReads, absPath: string): Promise<SourceText> {
	let contents;
	try {
		contents = await files.read(fileUri(absPath));
	} catch (err) {
		if (err instanceof ResourceNotFound) {
			return { kind: 'not-found' };
		}
		if (err instanceof ResourceTooLarge) {
			return { kind: 'no-text' };
		}
		throw err;
	}
	const first = contents[0];
	return first && 'text' in first ? { kind: 'text', text: first.text } : { kind: 'no-text' };
}

/** The file name a grammar is chosen by. */
export function baseName(absPath: string): string {
	return path.basename(absPath);
}
