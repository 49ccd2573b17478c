import * as vscode from 'vscode';
import { Emitter } from '../common/event';
import { OutputBuffer, cappedCommandLine } from '../core/terminal/outputBuffer';
import { CappedText, TerminalCommand, TerminalInfo, TerminalSource } from '../core/terminal/ports';

/** Commands kept per terminal, and terminals followed at most. */
const COMMANDS_PER_TERMINAL = 10;
const MAX_TERMINALS = 20;

interface Recorded {
	readonly commandLine: CappedText;
	readonly cwd?: string;
	exitCode?: number;
	running: boolean;
	readonly startedAt: number;
	endedAt?: number;
	readonly output: OutputBuffer;
}

/**
 * Commands run in terminals with shell integration, from VS Code's shell execution events.
 * Nothing is recorded while the workspace is untrusted or `enabled()` says no (the output is
 * not even read then). Translation and bounded bookkeeping only; redaction happens on read.
 */
export class VsCodeTerminals implements TerminalSource, vscode.Disposable {
	private readonly terminalEmitter = new Emitter<number>();
	readonly onDidChangeTerminal = this.terminalEmitter.event;
	private readonly terminalsEmitter = new Emitter<void>();
	readonly onDidChangeTerminals = this.terminalsEmitter.event;
	private readonly ids = new Map<vscode.Terminal, number>();
	private readonly recorded = new Map<number, Recorded[]>();
	private nextId = 1;
	private readonly subscriptions: vscode.Disposable[];

	constructor(private readonly enabled: () => boolean) {
		this.subscriptions = [
			vscode.window.onDidStartTerminalShellExecution(e => void this.record(e.terminal, e.execution)),
			vscode.window.onDidEndTerminalShellExecution(e => this.finish(e.terminal, e.execution, e.exitCode)),
			vscode.window.onDidCloseTerminal(terminal => {
				const id = this.ids.get(terminal);
				if (id !== undefined) {
					this.ids.delete(terminal);
					this.recorded.delete(id);
					this.terminalsEmitter.fire();
				}
			}),
		];
	}

	terminals(): readonly TerminalInfo[] {
		if (!this.enabled()) {
			// Turned off: what was recorded is forgotten, not just hidden.
			this.recorded.clear();
			return [];
		}
		const out: TerminalInfo[] = [];
		for (const [terminal, id] of this.ids) {
			out.push({ id, name: terminal.name, commands: (this.recorded.get(id) ?? []).map(snapshot) });
		}
		return out;
	}

	private readonly running = new Map<vscode.TerminalShellExecution, Recorded>();

	private async record(terminal: vscode.Terminal, execution: vscode.TerminalShellExecution): Promise<void> {
		if (!vscode.workspace.isTrusted || !this.enabled()) {
			return;
		}
		let id = this.ids.get(terminal);
		if (id === undefined) {
			if (this.ids.size >= MAX_TERMINALS) {
				return;
			}
			id = this.nextId++;
			this.ids.set(terminal, id);
			this.terminalsEmitter.fire();
		}
		const command: Recorded = {
			commandLine: cappedCommandLine(execution.commandLine.value),
			cwd: execution.cwd?.scheme === 'file' ? execution.cwd.fsPath : undefined,
			running: true,
			startedAt: Date.now(),
			output: new OutputBuffer(),
		};
		const list = this.recorded.get(id) ?? [];
		list.push(command);
		this.recorded.set(id, list.slice(-COMMANDS_PER_TERMINAL));
		this.running.set(execution, command);
		this.terminalEmitter.fire(id);
		const terminalId = id;
		try {
			for await (const chunk of execution.read()) {
				command.output.append(chunk);
				this.terminalEmitter.fire(terminalId);
			}
		} catch {
			// The stream ends with the terminal; what was read stays.
		}
	}

	private finish(terminal: vscode.Terminal, execution: vscode.TerminalShellExecution, exitCode: number | undefined): void {
		const command = this.running.get(execution);
		const id = this.ids.get(terminal);
		if (!command || id === undefined) {
			return;
		}
		this.running.delete(execution);
		command.running = false;
		command.exitCode = exitCode;
		command.endedAt = Date.now();
		this.terminalEmitter.fire(id);
	}

	dispose(): void {
		this.subscriptions.forEach(s => s.dispose());
		this.terminalEmitter.dispose();
		this.terminalsEmitter.dispose();
		this.running.clear();
	}
}

function snapshot(r: Recorded): TerminalCommand {
	return {
		commandLine: r.commandLine, cwd: r.cwd, exitCode: r.exitCode, running: r.running,
		startedAt: r.startedAt, endedAt: r.endedAt, output: r.output.snapshot(),
	};
}
