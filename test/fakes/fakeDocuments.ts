import { Emitter } from '../../src/common/event';
import { OpenDocuments } from '../../src/core/ports';

/** Open editor documents: `edit` makes a document dirty, `save`/`revert` make it clean. */
export class FakeDocuments implements OpenDocuments {
	private readonly dirty = new Map<string, string>();
	private readonly emitter = new Emitter<string>();
	readonly onDidChange = this.emitter.event;

	dirtyText(absPath: string): string | undefined {
		return this.dirty.get(absPath);
	}

	dirtyPaths(): readonly string[] {
		return [...this.dirty.keys()];
	}

	edit(absPath: string, text: string): void {
		this.dirty.set(absPath, text);
		this.emitter.fire(absPath);
	}

	revert(absPath: string): void {
		this.dirty.delete(absPath);
		this.emitter.fire(absPath);
	}
}
