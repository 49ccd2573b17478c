import { Emitter } from '../../src/common/event';
import { IDisposable, nothingToDispose } from '../../src/common/lifecycle';
import { ResourceNotFound } from '../../src/core/errors';
import { ResourceChange, ResourceContent, ResourceProvider, SortedEntries } from '../../src/core/resource';
import { SEARCH_FILES_TEMPLATE, SEARCH_TEXT_TEMPLATE } from '../../src/core/search/searchQuery';

/** What the fake reads to search: the files provider's listing and its reads (so only served files). */
export interface SearchedFiles {
	list(): SortedEntries;
	read(uri: string): Promise<ResourceContent[]>;
}

/**
 * A stand-in for the search provider of the search contract (`search://text{?q,regex,case,word,glob,max}`,
 * `search://files{?q,max}`), answering its JSON shape by scanning what the files provider lists
 * (a literal, case-insensitive unless `case=true`; paths by characters in order). It reads the
 * query as URL search parameters and records the URIs it was asked, so a test can check how a
 * tool fills the template.
 */
export class FakeSearch implements ResourceProvider {
	readonly id = 'search';
	readonly summary = 'search (search://text{?q,...}, search://files{?q,max})';
	private readonly emitter = new Emitter<ResourceChange>();
	readonly onDidChange = this.emitter.event;
	readonly asked: string[] = [];

	constructor(private readonly searched: SearchedFiles) {}

	async ready(): Promise<void> {}
	list(): [] {
		return [];
	}
	handles(uri: string): boolean {
		return /^search:/i.test(uri);
	}
	templates() {
		return [{ uriTemplate: SEARCH_TEXT_TEMPLATE, name: 'text search' }, { uriTemplate: SEARCH_FILES_TEMPLATE, name: 'file search' }];
	}
	async complete(): Promise<undefined> {
		return undefined;
	}
	async subscribe(): Promise<IDisposable> {
		return nothingToDispose;
	}
	dispose(): void {
		this.emitter.dispose();
	}

	async read(uri: string): Promise<ResourceContent[]> {
		this.asked.push(uri);
		const { host, searchParams } = new URL(uri);
		const vars = Object.fromEntries(searchParams);
		const body = host === 'text' ? await this.searchText(vars) : host === 'files' ? this.searchFiles(vars) : undefined;
		if (!body) {
			throw new ResourceNotFound(uri);
		}
		return [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }];
	}

	private async searchText(vars: Record<string, string>) {
		const q = String(vars.q);
		const max = Number(vars.max ?? 200);
		const matchCase = vars.case === 'true';
		const files = [];
		let matchCount = 0;
		let complete = true;
		for (const entry of this.entries()) {
			const [content] = await this.searched.read(entry.uri).catch(() => []);
			if (!content || !('text' in content)) {
				continue;
			}
			const matches = [];
			for (const [i, line] of content.text.split('\n').entries()) {
				const column = (matchCase ? line : line.toLowerCase()).indexOf(matchCase ? q : q.toLowerCase());
				if (column < 0) {
					continue;
				}
				if (matchCount === max) {
					complete = false;
					break;
				}
				matchCount++;
				matches.push({ line: i + 1, column: column + 1, text: line, uri: `${entry.uri}?lines=${i + 1}` });
			}
			if (matches.length > 0) {
				files.push({ uri: entry.uri, path: entry.name, matches });
			}
		}
		return { files, matchCount, fileCount: files.length, complete, ...!complete && { reason: 'max' } };
	}

	private searchFiles(vars: Record<string, string>) {
		const q = String(vars.q).toLowerCase();
		const max = Number(vars.max ?? 50);
		const found = this.entries().filter(e => inOrder(e.name.toLowerCase(), q)).map(e => ({ uri: e.uri, path: e.name, score: 1 }));
		return { files: found.slice(0, max), complete: found.length <= max };
	}

	private entries() {
		const list = this.searched.list();
		return Array.from({ length: list.length }, (_, i) => list.at(i)!);
	}
}

function inOrder(text: string, chars: string): boolean {
	let at = 0;
	for (const c of text) {
		if (at < chars.length && c === chars[at]) {
			at++;
		}
	}
	return at === chars.length;
}
