import { Emitter } from '../../src/common/event';
import { CappedText, TerminalCommand, TerminalInfo, TerminalSource } from '../../src/core/terminal/ports';

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

	/** A command as the source reports it; a plain string is text that was not cut. */
	run(id: number, command: Omit<Partial<TerminalCommand>, 'commandLine' | 'output'> & { commandLine: string | CappedText; output?: string | CappedText }): void {
		const { commandLine, output = '', ...rest } = command;
		this.list.find(t => t.id === id)!.commands.push({ running: false, startedAt: 0, ...rest, commandLine: capped(commandLine), output: capped(output) });
		this.terminalEmitter.fire(id);
	}

	terminals(): readonly TerminalInfo[] {
		return this.list;
	}
}

function capped(text: string | CappedText): CappedText {
	return typeof text === 'string' ? { text } : text;
}
