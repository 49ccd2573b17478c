import { Emitter } from '../../common/event';
import { Disposable, IDisposable, nothingToDispose } from '../../common/lifecycle';
import { ResourceNotFound } from '../errors';
import { JSON_MIME } from '../mime';
import { Completion, ResourceChange, ResourceContent, ResourceEntry, ResourceProvider, TemplateEntry } from '../resource';
import { Throttle } from '../throttle';
import { fileUri } from '../uriGuard';
import { ownIfDisposable, WorkspaceScope } from '../workspaceScope';
import { ActiveEditorSnapshot, EditorStateSource, EditorTab } from './ports';

export const EDITOR_ACTIVE_URI = 'editor://active';
export const EDITOR_SELECTION_URI = 'editor://selection';
export const EDITOR_TABS_URI = 'editor://tabs';
/** The label of a tab whose file is not served (its real label is the file's name). */
export const NOT_SERVED_LABEL = '(not served)';
/** Most selected text returned per selection. */
export const MAX_SELECTION_CHARS = 100_000;

export interface EditorProviderOptions {
	/** Shortest gap between two notifications for the active editor and selection. */
	readonly throttleMs: number;
}

const ENTRIES: readonly ResourceEntry[] = [
	{
		uri: EDITOR_ACTIVE_URI, name: 'active editor', title: 'Active editor',
		description: 'The file the user is looking at: language, selections with their text, visible range.',
		mimeType: JSON_MIME, annotations: { priority: 0.7, audience: ['assistant'] },
	},
	{
		uri: EDITOR_SELECTION_URI, name: 'selection', title: 'Selected text',
		description: 'The text selected in the active editor, with its file and range.',
		mimeType: JSON_MIME, annotations: { priority: 0.7, audience: ['assistant'] },
	},
	{
		uri: EDITOR_TABS_URI, name: 'open tabs', title: 'Open editor tabs',
		description: 'The tabs open in the editor, by group, with dirty and active state.',
		mimeType: JSON_MIME, annotations: { priority: 0.4, audience: ['assistant'] },
	},
];

/**
 * The editor's state as resources. Reads take a snapshot; change events are throttled so
 * moving the cursor gives clients a few notifications per second, not one per keystroke.
 */
export class EditorProvider extends Disposable implements ResourceProvider {
	readonly id = 'editor';
	readonly summary = 'editor state (editor://active, editor://selection, editor://tabs)';
	private readonly changeEmitter = this._register(new Emitter<ResourceChange>());
	readonly onDidChange = this.changeEmitter.event;
	/** What editor://active showed at the last announcement when it showed no file (undefined when it showed one). */
	private lastWithheld: string | undefined;

	constructor(
		private readonly source: EditorStateSource,
		private readonly scope: WorkspaceScope,
		options: EditorProviderOptions = { throttleMs: 150 },
	) {
		super();
		ownIfDisposable(source, d => this._register(d));
		this._register(scope);
		const active = this._register(new Throttle(options.throttleMs, () => this.announceActive()));
		const tabs = this._register(new Throttle(options.throttleMs,
			() => this.changeEmitter.fire({ updated: [EDITOR_TABS_URI], listChanged: false })));
		this._register(source.onDidChangeActive(() => active.trigger()));
		this._register(source.onDidChangeTabs(() => tabs.trigger()));
		this._register(scope.onDidChange(() => {
			active.trigger();
			tabs.trigger();
		}));
	}

	ready(): Promise<void> {
		return this.scope.ready();
	}

	/**
	 * Tells subscribers the active editor changed, unless a reader is shown no file now and was
	 * shown the same nothing last time: typing or moving the cursor in a secret, an outside file or
	 * an untitled buffer changes nothing a client can read, and telling it would tell it when the
	 * user types there (keystroke timing). The rule as loaded decides (a name it refuses is
	 * refused by the full rule too); a file it serves is always announced.
	 */
	private announceActive(): void {
		const editor = this.source.activeEditor();
		const shown = editor?.scheme === 'file' && editor.path !== undefined && this.scope.locate(editor.path) !== undefined;
		const withheld = shown ? undefined : JSON.stringify(withheldEditor(editor, true));
		if (withheld !== undefined && withheld === this.lastWithheld) {
			return;
		}
		this.lastWithheld = withheld;
		this.changeEmitter.fire({ updated: [EDITOR_ACTIVE_URI, EDITOR_SELECTION_URI], listChanged: false });
	}

	handles(uri: string): boolean {
		return /^editor:/i.test(uri);
	}

	list(): readonly ResourceEntry[] {
		return ENTRIES;
	}

	templates(): readonly TemplateEntry[] {
		return [];
	}

	async read(uri: string): Promise<ResourceContent[]> {
		let body: unknown;
		switch (uri) {
			case EDITOR_ACTIVE_URI: body = await this.active(true); break;
			case EDITOR_SELECTION_URI: body = await this.active(false); break;
			case EDITOR_TABS_URI: body = await this.tabs(); break;
			default: throw new ResourceNotFound(uri);
		}
		return [{ uri, mimeType: JSON_MIME, text: JSON.stringify(body, null, 2) }];
	}

	async subscribe(uri: string): Promise<IDisposable> {
		if (!ENTRIES.some(e => e.uri === uri)) {
			throw new ResourceNotFound(uri);
		}
		return nothingToDispose;
	}

	async complete(): Promise<Completion | undefined> {
		return undefined;
	}

	private async active(full: boolean): Promise<Record<string, unknown>> {
		const editor = this.source.activeEditor();
		// The full rule (.gitignore and links included), as a read of the file would apply it.
		const scoped = editor?.scheme === 'file' && editor.path ? await this.scope.locateServed(editor.path) : undefined;
		if (!editor || !scoped) {
			return withheldEditor(editor, full);
		}
		const selections = editor.selections
			.filter(s => full || s.start.line !== s.end.line || s.start.character !== s.end.character)
			.map(s => {
				const { text, truncated } = editor.textIn(s, MAX_SELECTION_CHARS);
				const out: Record<string, unknown> = full
					? { start: s.start, end: s.end, active: s.active, isEmpty: s.start.line === s.end.line && s.start.character === s.end.character, text }
					: { start: s.start, end: s.end, text };
				if (truncated) {
					out.truncated = true;
				}
				return out;
			});
		const head = { file: scoped.display, uri: fileUri(scoped.absPath), languageId: editor.languageId };
		if (!full) {
			return { ...head, selections };
		}
		return { ...head, isDirty: editor.isDirty, lineCount: editor.lineCount, selections, visibleRanges: editor.visibleRanges };
	}

	private async tabs(): Promise<Record<string, unknown>> {
		const tabs = this.source.tabs();
		const served = await Promise.all(tabs.map(tab => (tab.path ? this.scope.locateServed(tab.path) : undefined)));
		const labelServed = await Promise.all(tabs.map(tab => this.servesLabel(tab)));
		return {
			tabs: tabs.map((tab, i) => {
				const scoped = served[i];
				return {
					// A file tab's label is its file name (a diff's names both): a secret or ignored file is not named.
					label: labelServed[i] ? tab.label : NOT_SERVED_LABEL,
					kind: tab.kind,
					file: scoped?.display ?? null,
					...(scoped ? { uri: fileUri(scoped.absPath) } : {}),
					group: tab.group,
					isActive: tab.isActive,
					isDirty: tab.isDirty,
					isPinned: tab.isPinned,
					isPreview: tab.isPreview,
				};
			}),
		};
	}

	/** Whether the rule serves every file the tab's label may name. */
	private async servesLabel(tab: EditorTab): Promise<boolean> {
		const named = tab.labelPaths ?? (tab.path ? [tab.path] : []);
		const verdicts = await Promise.all(named.map(p => (p === null ? undefined : this.scope.locateServed(p))));
		return verdicts.every(scoped => scoped !== undefined);
	}
}

/**
 * What editor://active (`full`) and editor://selection show when they show no file: none is
 * active, or its file is outside the workspace, refused (secrets, excluded, ignored) or not a
 * file. No path, no text.
 */
function withheldEditor(editor: ActiveEditorSnapshot | undefined, full: boolean): Record<string, unknown> {
	if (!editor) {
		return { file: null, reason: 'no active text editor' };
	}
	return {
		file: null,
		reason: editor.scheme === 'file' ? 'the active file is not served (outside the workspace, excluded or ignored)' : `the active document is not a file (${editor.scheme})`,
		...(full ? { languageId: editor.languageId } : {}),
	};
}
