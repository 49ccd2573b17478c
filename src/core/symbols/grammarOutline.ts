import { Event } from '../../common/event';
import { OutlineSource, OutlineSymbol } from '../outline/ports';
import { fileUriToPath } from '../uriGuard';
import { Declaration, DeclarationSource } from './ports';
import { baseName, FileTextReads, sourceText } from './sourceText';

/**
 * Outlines from grammars, with no language service: headless, and in the editor for languages no
 * extension outlines. The text is the files provider's read (the served-or-not rule, the unsaved
 * buffer), so an outline always matches what a read of the file returns.
 */
export class GrammarOutline implements OutlineSource {
	readonly onDidChangeFile: Event<string>;

	constructor(private readonly files: FileTextReads, private readonly grammars: DeclarationSource) {
		this.onDidChangeFile = listener => files.onDidChange(change => {
			for (const uri of change.updated) {
				if (/^file:/i.test(uri)) {
					listener(fileUriToPath(uri));
				}
			}
		});
	}

	async symbols(absPath: string): Promise<readonly OutlineSymbol[] | undefined> {
		const source = await sourceText(this.files, absPath);
		if (source.kind === 'not-found') {
			return undefined;
		}
		const language = this.grammars.languageOf(baseName(absPath));
		if (source.kind === 'no-text' || !language) {
			return [];
		}
		return (await this.grammars.parse(language, source.text)).map(toOutlineSymbol);
	}

	/** Headless there is no editor, so no file is open. */
	openFiles(): readonly string[] {
		return [];
	}
}

export function toOutlineSymbol(d: Declaration): OutlineSymbol {
	return { name: d.name, kind: d.kind, range: d.range, selectionRange: d.selectionRange, children: d.children.map(toOutlineSymbol) };
}
