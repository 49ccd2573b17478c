import { Emitter } from '../../src/common/event';
import { IDisposable, nothingToDispose } from '../../src/common/lifecycle';
import { ResourceNotFound } from '../../src/core/errors';
import { ResourceChange, ResourceContent, ResourceProvider } from '../../src/core/resource';

/**
 * A stand-in for the symbols family (`symbols://workspace{?q,kind,max}` and, as in the editor, the
 * relation templates), answering its JSON shape from a fixed list, and recording the URIs it was
 * asked so a test can check how a tool fills the templates.
 */
export class FakeSymbols implements ResourceProvider {
	readonly id = 'symbols';
	readonly summary = 'symbols (symbols://workspace{?q,kind,max}, relations)';
	private readonly emitter = new Emitter<ResourceChange>();
	readonly onDidChange = this.emitter.event;
	readonly asked: string[] = [];

	constructor(private readonly fileUri: (path: string) => string) {}

	async ready(): Promise<void> {}
	list(): [] {
		return [];
	}
	handles(uri: string): boolean {
		return /^symbols:/i.test(uri);
	}
	templates() {
		return [
			{ uriTemplate: 'symbols://workspace{?q,kind,max}', name: 'symbols' },
			{ uriTemplate: 'symbols://references/{+path}{?symbol,line,character,max}', name: 'references' },
		];
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
		const max = Number(searchParams.get('max') ?? 100);
		let body: unknown;
		if (host === 'workspace') {
			const q = (searchParams.get('q') ?? '').toLowerCase();
			const all = [
				{ name: 'greet', kind: 'function', path: 'src/greet.ts', line: 3, uri: `${this.fileUri('src/greet.ts')}?lines=3-5` },
				{ name: 'Greeter', kind: 'class', path: 'src/greet.ts', line: 7, uri: `${this.fileUri('src/greet.ts')}?lines=7-20` },
				{ name: 'hello', kind: 'method', container: 'Greeter', path: 'src/greet.ts', line: 9, uri: `${this.fileUri('src/greet.ts')}?lines=9-11` },
			].filter(s => s.name.toLowerCase().startsWith(q));
			body = { symbols: all.slice(0, max), complete: all.length <= max };
		} else if (host === 'references') {
			body = {
				relation: 'references',
				items: [{ path: 'src/main.ts', line: 2, column: 10, text: 'greet("x");', uri: `${this.fileUri('src/main.ts')}?lines=2` }].slice(0, max),
				complete: true,
			};
		} else {
			throw new ResourceNotFound(uri);
		}
		return [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }];
	}
}
