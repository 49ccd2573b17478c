import { Event } from '../../common/event';
import { IDisposable } from '../../common/lifecycle';
import { OutlineSource, OutlineSymbol } from './ports';

/**
 * The editor's outline first (its language services know the live text best), then the grammars
 * for a file no outline provider answers for: a language with no extension installed.
 */
export class FirstAnsweringOutline implements OutlineSource, IDisposable {
	readonly onDidChangeFile: Event<string>;

	constructor(private readonly first: OutlineSource, private readonly then: OutlineSource) {
		// The editor's events cover typing and saving; the grammars' come from the same files.
		this.onDidChangeFile = first.onDidChangeFile;
	}

	async symbols(absPath: string): Promise<readonly OutlineSymbol[] | undefined> {
		const answer = await this.first.symbols(absPath);
		if (answer === undefined || answer.length > 0) {
			return answer;
		}
		return (await this.then.symbols(absPath)) ?? [];
	}

	openFiles(): readonly string[] {
		return this.first.openFiles();
	}

	dispose(): void {
		for (const source of [this.first, this.then]) {
			(source as Partial<IDisposable>).dispose?.();
		}
	}
}
