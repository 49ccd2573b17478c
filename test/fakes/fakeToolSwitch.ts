import { Emitter } from '../../src/common/event';
import { ToolSwitch } from '../../src/mcp/tools/toolSwitch';

/** The tools setting as a test turns it: `set` changes it, `touch` fires a change that leaves it as it is (another scope's edit). */
export class FakeToolSwitch implements ToolSwitch {
	private readonly emitter = new Emitter<void>();
	readonly onDidChange = this.emitter.event;
	constructor(private on = true) {}
	get(): boolean {
		return this.on;
	}
	set(on: boolean): void {
		this.on = on;
		this.emitter.fire();
	}
	touch(): void {
		this.emitter.fire();
	}
}
