import { existsSync } from 'node:fs';
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

	/** As the editor does: undefined for a file that does not exist. */
	async symbols(absPath: string): Promise<readonly OutlineSymbol[] | undefined> {
		this.asked.push(absPath);
		return existsSync(absPath) ? this.byPath.get(absPath) ?? [] : undefined;
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
