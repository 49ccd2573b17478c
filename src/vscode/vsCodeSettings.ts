import * as vscode from 'vscode';
import { Emitter } from '../common/event';
import { FileSettings, SettingsSource } from '../core/ports';

const DEFAULT_MAX_FILE_SIZE = 1024 * 1024;

/** `files.exclude` plus the extension's `mcpResources.*` settings, read fresh on each change. */
export class VsCodeFileSettings implements SettingsSource<FileSettings>, vscode.Disposable {
	private readonly emitter = new Emitter<void>();
	readonly onDidChange = this.emitter.event;
	private cached: FileSettings | undefined;
	private readonly subscription = vscode.workspace.onDidChangeConfiguration(e => {
		if (['files.exclude', 'mcpResources.exclude', 'mcpResources.secrets', 'mcpResources.respectGitignore', 'mcpResources.maxFileSize']
			.some(key => e.affectsConfiguration(key))) {
			this.cached = undefined;
			this.emitter.fire();
		}
	});

	get(): FileSettings {
		if (!this.cached) {
			// files.exclude is resource-scoped: read it per folder and serve nothing any folder
			// excludes (patterns are relative, so one list applies to every folder).
			const scopes = vscode.workspace.workspaceFolders?.map(f => f.uri) ?? [undefined];
			const excludedByFiles = new Set(scopes.flatMap(scope => {
				const patterns = vscode.workspace.getConfiguration('files', scope).get<Record<string, unknown>>('exclude') ?? {};
				// `true` excludes; `{ when: ... }` sibling conditions are treated as excluded to be safe.
				return Object.entries(patterns).filter(([, v]) => v === true || (typeof v === 'object' && v !== null)).map(([k]) => k);
			}));
			const config = vscode.workspace.getConfiguration('mcpResources');
			this.cached = {
				exclude: [...excludedByFiles, ...stringArray(config.get('exclude'))],
				secrets: stringArray(config.get('secrets')),
				respectGitignore: config.get<boolean>('respectGitignore', true),
				maxFileSize: positive(config.get<number>('maxFileSize'), DEFAULT_MAX_FILE_SIZE),
				maxFileSizeSetting: 'mcpResources.maxFileSize',
			};
		}
		return this.cached;
	}

	dispose(): void {
		this.subscription.dispose();
		this.emitter.dispose();
	}
}

function stringArray(value: unknown): string[] {
	return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function positive(value: number | undefined, fallback: number): number {
	return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}
