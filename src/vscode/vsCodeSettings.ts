import * as vscode from 'vscode';
import { Emitter } from '../common/event';
import { Logger } from '../common/logger';
import { FileSettingLayers, mergeFileSettings, SettingLayers } from '../core/files/settingLayers';
import { DEFAULT_MAX_FILE_SIZE, FileSettings, SettingsSource } from '../core/ports';
import { gitUserConfig } from '../node/gitUserConfig';

const KEYS = ['files.exclude', 'mcpResources.exclude', 'mcpResources.secrets', 'mcpResources.respectGitignore', 'mcpResources.maxFileSize'];

/**
 * `files.exclude` plus the extension's `mcpResources.*` settings, read fresh on each change.
 * Each scope is read apart (`inspect`) and merged by `mergeFileSettings`, so a folder's
 * settings can only hide more; the merged `get()` would let a folder replace the user's lists.
 */
export class VsCodeFileSettings implements SettingsSource<FileSettings>, vscode.Disposable {
	private readonly emitter = new Emitter<void>();
	readonly onDidChange = this.emitter.event;
	private cached: FileSettings | undefined;
	/** What was last reported as refused, so each refusal is logged once, not on every change. */
	private reported = '';
	private readonly subscriptions = [
		vscode.workspace.onDidChangeConfiguration(e => {
			if (KEYS.some(key => e.affectsConfiguration(key))) {
				this.reset();
			}
		}),
		// A folder added or removed brings or takes its own settings.
		vscode.workspace.onDidChangeWorkspaceFolders(() => this.reset()),
	];

	constructor(private readonly log?: Logger) {}

	get(): FileSettings {
		if (!this.cached) {
			const folders = vscode.workspace.workspaceFolders?.map(f => f.uri) ?? [];
			const layers: FileSettingLayers = {
				filesExclude: read('files', 'exclude', folders, true),
				exclude: read('mcpResources', 'exclude', folders),
				secrets: read('mcpResources', 'secrets', folders),
				respectGitignore: read('mcpResources', 'respectGitignore', folders),
				maxFileSize: read('mcpResources', 'maxFileSize', folders),
				defaultMaxFileSize: DEFAULT_MAX_FILE_SIZE,
			};
			const merged = mergeFileSettings(layers);
			const refused = merged.refused.join(', ');
			if (refused && refused !== this.reported) {
				this.log?.warn(`workspace settings may only hide more; ignored: ${refused} (set these in your user settings instead)`);
			}
			this.reported = refused;
			this.cached = {
				exclude: merged.exclude,
				secrets: merged.secrets,
				respectGitignore: merged.respectGitignore,
				maxFileSize: merged.maxFileSize,
				maxFileSizeSetting: 'mcpResources.maxFileSize',
				gitUser: gitUserConfig(),
			};
		}
		return this.cached;
	}

	dispose(): void {
		this.subscriptions.forEach(s => s.dispose());
		this.emitter.dispose();
	}

	private reset(): void {
		this.cached = undefined;
		this.emitter.fire();
	}
}

/**
 * One setting by scope. The user layer is the user's (and machine's) value over the default;
 * objects such as `files.exclude` are merged with their default as VS Code merges them.
 */
function read(section: string, key: string, folders: readonly vscode.Uri[], mergeObject = false): SettingLayers<unknown> {
	const base = vscode.workspace.getConfiguration(section).inspect<unknown>(key);
	const user = mergeObject && isObject(base?.defaultValue) && isObject(base?.globalValue)
		? { ...base.defaultValue, ...base.globalValue }
		: base?.globalValue ?? base?.defaultValue;
	return {
		user,
		workspace: base?.workspaceValue,
		folders: folders.map(uri => vscode.workspace.getConfiguration(section, uri).inspect<unknown>(key)?.workspaceFolderValue),
	};
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A switch a folder's settings may turn off but never on against the user (`enabled`,
 * `terminalOutput`): on unless some level says `false`.
 */
export function switchedOn(section: string, key: string): boolean {
	const values = vscode.workspace.getConfiguration(section).inspect<unknown>(key);
	return [values?.defaultValue, values?.globalValue, values?.workspaceValue, values?.workspaceFolderValue].every(v => v !== false);
}

/**
 * A `mcpResources.*` switch (`terminalOutput`, `tools.enabled`) as a settings source: on unless
 * some level says `false` (see `switchedOn`), so a folder's settings can turn it off but never
 * on against the user. Fires when any level of it changes.
 */
export class VsCodeSwitch implements SettingsSource<boolean>, vscode.Disposable {
	private readonly emitter = new Emitter<void>();
	readonly onDidChange = this.emitter.event;
	private readonly subscription = vscode.workspace.onDidChangeConfiguration(e => {
		if (e.affectsConfiguration(`mcpResources.${this.key}`)) {
			this.emitter.fire();
		}
	});

	constructor(private readonly key: string) {}

	get(): boolean {
		return switchedOn('mcpResources', this.key);
	}

	dispose(): void {
		this.subscription.dispose();
		this.emitter.dispose();
	}
}

/**
 * The user's own value (or the default), whatever a folder's settings say: for settings a cloned
 * repository has no business choosing, such as the port the server listens on.
 */
export function userValue<T>(section: string, key: string, fallback: T): T {
	const values = vscode.workspace.getConfiguration(section).inspect<T>(key);
	return values?.globalValue ?? values?.defaultValue ?? fallback;
}
