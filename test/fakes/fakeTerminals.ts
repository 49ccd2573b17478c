import { Emitter } from '../../src/common/event';
import { TerminalCommand, TerminalInfo, TerminalSource } from '../../src/core/terminal/ports';

/** Terminals the test fills with commands. */
export class FakeTerminals implements TerminalSource {
	private readonly terminalEmitter = new Emitter<number>();
	readonly onDidChangeTerminal = this.terminalEmitter.event;
	private readonly terminalsEmitter = new Emitter<void>();
	readonly onDidChangeTerminals = this.terminalsEmitter.event;
	list: { id: number; name: string; commands: TerminalCommand[] }[] = [];

	open(id: number, name: string): void {
		this.list.push({ id, name, commands: [] });
		this.terminalsEmitter.fire();
	}

	run(id: number, command: Partial<TerminalCommand> & { commandLine: string }): void {
		this.list.find(t => t.id === id)!.commands.push({ running: false, startedAt: 0, output: '', ...command });
		this.terminalEmitter.fire(id);
	}

	terminals(): readonly TerminalInfo[] {
		return this.list;
	}
}
