import * as vscode from 'vscode';
import { ResourceNode, ViewNode } from '../../picker/pickerNodes';
import { PickerService } from '../../picker/pickerService';
import { PickerViewModel, RowsChange } from '../../picker/pickerViewModel';
import { selectedLine } from '../../picker/textMatches';
import { formatTokens } from '../../picker/tokenEstimate';
import { DRAG_MIME_TYPES, fillDragData } from './resourceDrag';
import { resourceTooltip } from './resourceItem';
import { treeItem } from './treeItems';

export const VIEW_ID = 'mcpResources.picker';
/**
 * The extension host passes tree changes to the workbench through a 200 ms debounce that fires
 * on the leading edge: a change after a quiet 200 ms shows at once, one inside the window waits
 * for its end. Our refreshes are spaced just over it so each one is a leading edge (and so the
 * tree change must go before the view message, which counts as a change too).
 */
const WORKBENCH_COALESCE_MS = 210;
/** Spacing of refreshes while pages stream in (see scheduleRefresh). */
const LOADING_REFRESH_MS = 1000;

/**
 * The "Resources" tree: the rows of the PickerViewModel as TreeItems, checkboxes that select,
 * a badge that counts the selection, drag as `text/uri-list`, and refreshes timed to the
 * workbench's redraw interval.
 */
export class PickerView implements vscode.TreeDataProvider<ViewNode>, vscode.TreeDragAndDropController<ViewNode>, vscode.Disposable {
	private readonly changeEmitter = new vscode.EventEmitter<ViewNode | undefined>();
	readonly onDidChangeTreeData = this.changeEmitter.event;
	readonly dragMimeTypes = DRAG_MIME_TYPES;
	readonly dropMimeTypes: string[] = [];
	readonly view: vscode.TreeView<ViewNode>;
	private readonly disposables: vscode.Disposable[] = [];
	private refreshTimer: NodeJS.Timeout | undefined;
	private lastRefresh = 0;
	private refreshDue = 0;
	/** Resources of all servers at the last refresh: the first page is drawn without waiting. */
	private shownAtLastRefresh = 0;
	/** Why "This workspace" is not listed, when it is not (Restricted Mode, turned off). */
	private workspaceNote: string | undefined;
	private readonly renderedEmitter = new vscode.EventEmitter<void>();
	/** Fires after the tree was asked for a refresh (tests wait on it). */
	readonly onDidRequestRender = this.renderedEmitter.event;

	constructor(private readonly service: PickerService, readonly model: PickerViewModel) {
		this.view = vscode.window.createTreeView(VIEW_ID, {
			treeDataProvider: this,
			dragAndDropController: this,
			canSelectMany: true,
			showCollapseAll: true,
			manageCheckboxStateManually: true,
		});
		this.disposables.push(
			this.view,
			this.changeEmitter,
			this.renderedEmitter,
			this.view.onDidChangeCheckboxState(e => this.onCheckboxes(e)),
			this.view.onDidChangeVisibility(e => model.setVisible(e.visible)),
			{ dispose: model.onDidChange(change => this.onRowsChange(change)).dispose },
		);
		model.setVisible(this.view.visible);
		this.updateBadge();
	}

	get filter(): string | undefined {
		return this.model.filter;
	}

	setFilter(query: string | undefined): void {
		this.model.setFilter(query);
	}

	/**
	 * The view's welcome content says why "This workspace" is missing, but VS Code shows it only
	 * while the tree is empty: with other servers listed, the view's message says it instead.
	 */
	setWorkspaceNote(note: string | undefined): void {
		this.workspaceNote = note;
		this.refreshWithin(0);
	}

	refreshNow(): void {
		if (this.refreshTimer) {
			clearTimeout(this.refreshTimer);
			this.refreshTimer = undefined;
		}
		this.lastRefresh = Date.now();
		this.shownAtLastRefresh = this.model.listedCount;
		this.model.redrawing();
		// The tree change goes first: see WORKBENCH_COALESCE_MS for why the order matters.
		this.changeEmitter.fire(undefined);
		this.updateBadge();
		this.renderedEmitter.fire();
	}

	private onRowsChange(change: RowsChange): void {
		switch (change) {
			case 'filter':
				void vscode.commands.executeCommand('setContext', 'mcpResources.picker.filtering', this.model.filter !== undefined);
				this.refreshWithin(WORKBENCH_COALESCE_MS);
				return;
			case 'paging':
				this.refreshWithin(0);
				return;
			case 'data':
				this.scheduleRefresh();
				return;
		}
	}

	private scheduleRefresh(): void {
		// A refresh redraws every expanded node, one round trip to the workbench per level. While
		// pages stream in, the extension host is busy serving and merging them; refreshing often
		// then restarted the workbench's refresh before it finished, and nothing showed until the
		// last page. So: the first page draws at once, later changes at most once a second while
		// loading, and otherwise as soon as the workbench takes them.
		const shown = this.model.listedCount;
		const firstPage = shown > 0 && this.shownAtLastRefresh === 0;
		this.refreshWithin(firstPage ? 0 : this.model.loading ? LOADING_REFRESH_MS : WORKBENCH_COALESCE_MS);
	}

	/** Refreshes once `gap` ms have passed since the last refresh (at once if they have). */
	private refreshWithin(gap: number): void {
		const due = Math.max(Date.now(), this.lastRefresh + gap);
		if (this.refreshTimer && this.refreshDue <= due) {
			return;
		}
		clearTimeout(this.refreshTimer);
		this.refreshDue = due;
		this.refreshTimer = setTimeout(() => this.refreshNow(), Math.max(0, due - Date.now()));
	}

	private updateBadge(): void {
		const count = this.service.selection.size;
		const tokens = this.service.selection.estimatedTokens;
		const counted = this.service.selection.tokensCounted;
		this.view.badge = count > 0 ? { value: count, tooltip: `${count} selected, ${counted ? '' : '~'}${tokens.toLocaleString('en-US')} tokens` } : undefined;
		this.view.description = count > 0 ? `${count} selected · ${formatTokens(tokens, counted)}` : undefined;
		const note = this.workspaceNote && this.model.children().length > 0 ? this.workspaceNote : undefined;
		const text = this.model.textMessage;
		const filter = this.model.filter ? `Filter: "${this.model.filter}"${text ? ` · Text matches: ${text}` : ''}` : undefined;
		const message = note && filter ? `${note} ${filter}` : note ?? filter;
		// Setting the message counts as a tree change for the workbench's coalescing: only on change.
		if (this.view.message !== message) {
			this.view.message = message;
		}
		void vscode.commands.executeCommand('setContext', 'mcpResources.picker.hasSelection', count > 0);
	}

	getChildren(node?: ViewNode): ViewNode[] {
		return this.model.children(node);
	}

	getTreeItem(node: ViewNode): vscode.TreeItem {
		return treeItem(this.service, node, this.model.filter !== undefined, node.kind === 'textMatches' ? this.model.textMatchesOf(node.serverId).length : 0);
	}

	/**
	 * Tooltips are built on hover only: a refresh (every filter keystroke) then sends just
	 * labels and descriptions to the workbench, not a Markdown document per row.
	 */
	resolveTreeItem(item: vscode.TreeItem, node: ViewNode): vscode.TreeItem {
		if (node.kind === 'resource') {
			item.tooltip = resourceTooltip(this.service, node);
		}
		return item;
	}

	handleDrag(source: readonly ViewNode[], dataTransfer: vscode.DataTransfer): void {
		fillDragData(this.service, source, dataTransfer);
	}

	private onCheckboxes(e: vscode.TreeCheckboxChangeEvent<ViewNode>): void {
		const add: { serverId: string; resource: ResourceNode['resource'] }[] = [];
		const remove: { serverId: string; uri: string }[] = [];
		for (const [node, state] of e.items) {
			// A matched line selects the line's own URI, as a file row selects the file.
			const chosen = node.kind === 'resource' ? { serverId: node.serverId, resource: node.resource } : node.kind === 'line' ? selectedLine(node.match) : undefined;
			if (!chosen) {
				continue;
			}
			if (state === vscode.TreeItemCheckboxState.Checked) {
				add.push(chosen);
			} else {
				remove.push({ serverId: chosen.serverId, uri: chosen.resource.uri });
			}
		}
		this.service.selection.update(add, remove);
	}

	dispose(): void {
		if (this.refreshTimer) {
			clearTimeout(this.refreshTimer);
		}
		this.disposables.forEach(d => d.dispose());
	}
}
