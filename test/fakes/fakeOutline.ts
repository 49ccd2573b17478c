import { Emitter } from '../../src/common/event';
import { OutlineSource, OutlineSymbol } from '../../src/core/outline/ports';

/** Outlines the test sets per file; `edit` fires a change as typing would. */
export class FakeOutline implements OutlineSource {
	private readonly byPath = new Map<string, OutlineSymbol[]>();
	open: string[] = [];
	private readonly fileEmitter = new Emitter<string>();
	readonly onDidChangeFile = this.fileEmitter.event;
	asked: string[] = [];

	set(absPath: string, symbols: OutlineSymbol[]): void {
		this.byPath.set(absPath, symbols);
	}

	edit(absPath: string): void {
		this.fileEmitter.fire(absPath);
	}

	setOpen(paths: string[]): void {
		this.open = paths;
	}

	async symbols(absPath: string): Promise<readonly OutlineSymbol[]> {
		this.asked.push(absPath);
		return this.byPath.get(absPath) ?? [];
	}

	openFiles(): readonly string[] {
		return this.open;
	}
}

/** A symbol spanning 0-based lines `from` to `to`. */
export function sym(name: string, kind: string, from: number, to: number, children: OutlineSymbol[] = []): OutlineSymbol {
	const range = { start: { line: from, character: 0 }, end: { line: to, character: 1 } };
	return { name, kind, range, selectionRange: range, children };
}
