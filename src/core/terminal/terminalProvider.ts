import { Emitter } from '../../common/event';
import { Disposable, IDisposable, nothingToDispose } from '../../common/lifecycle';
import { ResourceNotFound } from '../errors';
import { SettingsSource } from '../ports';
import { JSON_MIME, TEXT_MIME } from '../mime';
import { Completion, ResourceChange, ResourceContent, ResourceEntry, ResourceProvider, TemplateEntry } from '../resource';
import { Throttle } from '../throttle';
import { ownIfDisposable } from '../workspaceScope';
import { CappedText, TerminalCommand, TerminalInfo, TerminalSource } from './ports';
import { redactAcrossCut, redactSecrets } from './redact';


export interface TerminalProviderOptions {
	/** Shortest gap between two notifications while a command prints. */
	readonly throttleMs: number;
}

/**
 * What the terminals ran: `terminal://<n>/last` (the last command, its exit code and output as
 * text) and `terminal://<n>/commands` (the last commands as JSON), for terminals with shell
 * integration. Credentials are redacted from command lines and output on every read; the
 * `mcpResources.terminalOutput` setting turns the family off.
 */
export class TerminalProvider extends Disposable implements ResourceProvider {
	readonly id = 'terminal';
	readonly summary = 'terminal commands and output (terminal://<n>/last, terminal://<n>/commands; credentials redacted)';
	private readonly changeEmitter = this._register(new Emitter<ResourceChange>());
	readonly onDidChange = this.changeEmitter.event;
	private readonly changed = new Set<number>();

	constructor(
		private readonly source: TerminalSource,
		private readonly enabled: SettingsSource<boolean>,
		options: TerminalProviderOptions = { throttleMs: 300 },
	) {
		super();
		ownIfDisposable(source, d => this._register(d));
		ownIfDisposable(enabled, d => this._register(d));
		const notify = this._register(new Throttle(options.throttleMs, () => {
			const updated = [...this.changed].flatMap(id => [lastUri(id), commandsUri(id)]);
			this.changed.clear();
			this.changeEmitter.fire({ updated, listChanged: false });
		}));
		let listed = this.listedKey();
		const listMaybeChanged = () => {
			const key = this.listedKey();
			if (key !== listed) {
				listed = key;
				this.changeEmitter.fire({ updated: [], listChanged: true });
			}
		};
		this._register(source.onDidChangeTerminal(id => {
			listMaybeChanged(); // a terminal's first command lists it
			if (this.enabled.get()) {
				this.changed.add(id);
				notify.trigger();
			}
		}));
		this._register(source.onDidChangeTerminals(listMaybeChanged));
		this._register(enabled.onDidChange(listMaybeChanged));
	}

	ready(): Promise<void> {
		return Promise.resolve();
	}

	handles(uri: string): boolean {
		return /^terminal:/i.test(uri);
	}

	list(): readonly ResourceEntry[] {
		const entries: ResourceEntry[] = [];
		for (const t of this.served()) {
			entries.push(
				{
					uri: commandsUri(t.id), name: `${t.name} (terminal ${t.id}): commands`, title: `Terminal ${t.id} (${t.name}): last commands`,
					description: 'The last commands of this terminal: command line, directory, exit code and output (capped, credentials redacted).',
					mimeType: JSON_MIME, annotations: { priority: 0.5, audience: ['assistant'] },
				},
				{
					uri: lastUri(t.id), name: `${t.name} (terminal ${t.id}): last command`, title: `Terminal ${t.id} (${t.name}): last command`,
					description: 'What the last command printed, with its command line and exit code (credentials redacted).',
					mimeType: TEXT_MIME, annotations: { priority: 0.6, audience: ['assistant'] },
				},
			);
		}
		return entries.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
	}

	templates(): readonly TemplateEntry[] {
		return [];
	}

	async read(uri: string): Promise<ResourceContent[]> {
		const { terminal, kind } = this.resolve(uri);
		if (kind === 'last') {
			const last = terminal.commands[terminal.commands.length - 1];
			return [{ uri, mimeType: TEXT_MIME, text: await renderText(last) }];
		}
		const commands = await Promise.all(terminal.commands.map(renderJson));
		return [{ uri, mimeType: JSON_MIME, text: JSON.stringify({ terminal: terminal.name, commands }, null, 2) }];
	}

	async subscribe(uri: string): Promise<IDisposable> {
		this.resolve(uri);
		return nothingToDispose;
	}

	async complete(): Promise<Completion | undefined> {
		return undefined;
	}

	/** Terminals that ran something, while the family is on. */
	private served(): readonly TerminalInfo[] {
		return this.enabled.get() ? this.source.terminals().filter(t => t.commands.length > 0) : [];
	}

	private listedKey(): string {
		return this.served().map(t => t.id).join(',');
	}

	private resolve(uri: string): { terminal: TerminalInfo; kind: 'last' | 'commands' } {
		const match = /^terminal:\/\/([1-9][0-9]{0,5})\/(last|commands)$/.exec(uri);
		const terminal = match ? this.served().find(t => t.id === Number(match[1])) : undefined;
		if (!match || !terminal) {
			throw new ResourceNotFound(uri);
		}
		return { terminal, kind: match[2] as 'last' | 'commands' };
	}
}

function lastUri(id: number): string {
	return `terminal://${id}/last`;
}

function commandsUri(id: number): string {
	return `terminal://${id}/commands`;
}

/** The marker where output was cut, so a reader knows it does not see everything. */
function cutMarker(chars: number, what: string): string {
	return `\n[... ${chars.toLocaleString('en-US')} characters of ${what} cut here ...]\n`;
}

/** Capped text, redacted, with the marker where it was cut. */
function redactedCapped({ text, cut, cutEdges }: CappedText, what: string): Promise<string> {
	return cut
		? redactAcrossCut(text.slice(0, cut.at), cutMarker(cut.chars, what), text.slice(cut.at), cutEdges)
		: redactSecrets(text);
}

async function renderText(command: TerminalCommand): Promise<string> {
	const status = command.running ? 'running' : command.exitCode === undefined ? 'exit code unknown' : `exit code ${command.exitCode}`;
	const head = `$ ${await redactedCapped(command.commandLine, 'the command line')}\n# ${command.cwd ? `in ${command.cwd}, ` : ''}${status}\n`;
	return head + await redactedCapped(command.output, 'output');
}

async function renderJson(command: TerminalCommand): Promise<Record<string, unknown>> {
	return {
		commandLine: await redactedCapped(command.commandLine, 'the command line'),
		...(command.commandLine.cut ? { commandLineCut: command.commandLine.cut.chars } : {}),
		...(command.cwd ? { cwd: command.cwd } : {}),
		...(command.exitCode !== undefined ? { exitCode: command.exitCode } : {}),
		running: command.running,
		startedAt: new Date(command.startedAt).toISOString(),
		...(command.endedAt !== undefined ? { endedAt: new Date(command.endedAt).toISOString() } : {}),
		output: await redactedCapped(command.output, 'output'),
		...(command.output.cut ? { outputCut: command.output.cut.chars } : {}),
	};
}
