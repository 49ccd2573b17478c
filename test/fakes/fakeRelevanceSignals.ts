import { Emitter } from '../../src/common/event';
import { EditorSignals, FileTouch } from '../../src/core/relevance/ports';

/** An editor the test drives for relevance: what is shown, and what is typed into or saved. */
export class FakeRelevanceSignals implements EditorSignals {
	private readonly changeEmitter = new Emitter<void>();
	readonly onDidChange = this.changeEmitter.event;
	private readonly touchEmitter = new Emitter<readonly FileTouch[]>();
	readonly onDidTouch = this.touchEmitter.event;
	active: string | undefined;
	visible: string[] = [];
	tabs: string[] = [];

	show(active: string | undefined, visible: string[] = active ? [active] : [], tabs: string[] = visible): void {
		this.active = active;
		this.visible = visible;
		this.tabs = tabs;
		this.changeEmitter.fire();
	}

	touch(path: string, kind: FileTouch['kind']): void {
		this.touchEmitter.fire([{ path, kind }]);
	}

	/** Touches in one batch, as a watcher delivers a burst of changes. */
	touchAll(touches: readonly FileTouch[]): void {
		this.touchEmitter.fire(touches);
	}

	activeFile(): string | undefined {
		return this.active;
	}

	visibleFiles(): readonly string[] {
		return this.visible;
	}

	openFiles(): readonly string[] {
		return this.tabs;
	}
}
