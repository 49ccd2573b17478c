import * as vscode from 'vscode';
import { escapeIconSyntax } from '../../picker/markdownText';
import { GROUP_LABELS, GROUP_ORDER, ResourceNode } from '../../picker/pickerNodes';
import { PickerService } from '../../picker/pickerService';
import { SelectedResource, selectionKey } from '../../picker/selection';
import { ListedResource } from '../../picker/listedItems';
import { RowLook, ShownRows } from '../../picker/shownRows';
import { selectedLine, TextMatch, TextMatches, textMatchesMessage } from '../../picker/textMatches';
import { estimateTokensFromSize } from '../../picker/tokenCount';
import { formatSize, formatTokens } from '../../picker/tokenEstimate';
import { onTypingSettled } from './typing';

/** A row that checks: a listed resource (`node`), a matched line, or a selected resource not listed now. */
interface ResourceItem extends vscode.QuickPickItem {
	readonly key: string;
	readonly serverId: string;
	readonly resource: ListedResource;
	readonly node?: ResourceNode;
}

const PER_SERVER = 100;
const TITLE = 'Pick MCP Resources';

function lookOf(item: ResourceItem | vscode.QuickPickItem): RowLook {
	return {
		key: 'key' in item ? item.key : undefined,
		kind: item.kind,
		label: item.label,
		description: item.description,
		detail: item.detail,
		icon: item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined,
	};
}

/**
 * "Pick Resources...": a multi-select QuickPick over every server. Our own index filters (VS
 * Code's built-in filter would have to hold 100,000 items); results are grouped by server and
 * kind, and `alwaysShow` keeps VS Code from filtering them a second time. Below them, "Text
 * matches": the lines of files that hold what is typed, from every server offering search://text.
 * Resolves with the number of resources selected afterwards, or undefined when cancelled.
 */
export function pickResources(service: PickerService): Promise<number | undefined> {
	const qp = vscode.window.createQuickPick<ResourceItem | vscode.QuickPickItem>();
	qp.title = TITLE;
	qp.canSelectMany = true;
	qp.matchOnDescription = true;
	qp.placeholder = 'Type to search names and URIs of every server; check to select';
	const items = new Map<string, ResourceItem>();
	const checked = new Set(service.selection.list().map(i => selectionKey(i.serverId, i.resource.uri)));
	const seen = new Set<string>();
	let applyingSelection = false;
	const text = new TextMatches(service, { log: service.log });
	const shownRows = new ShownRows();

	const itemFor = (node: ResourceNode): ResourceItem => {
		const key = selectionKey(node.serverId, node.resource.uri);
		let item = items.get(key);
		if (!item) {
			const folder = node.path.length > node.label.length ? node.path.slice(0, node.path.length - node.label.length - 1) : '';
			const size = node.resource.size !== undefined ? `${formatSize(node.resource.size)} · ${formatTokens(estimateTokensFromSize(node.resource.size))}` : '';
			item = {
				key, node, serverId: node.serverId, resource: node.resource, alwaysShow: true,
				label: `$(${node.group === 'files' ? 'file' : 'symbol-file'}) ${escapeIconSyntax(node.label)}`,
				description: escapeIconSyntax([folder, size].filter(Boolean).join('  ')),
				detail: node.group === 'files' ? undefined : escapeIconSyntax(node.resource.uri),
			};
			items.set(key, item);
		}
		return item;
	};

	/** A matched line: label `path:line`, the line's text below; plain text (made so by TextMatches). */
	const lineItem = (match: TextMatch, server: string | undefined): ResourceItem => {
		const key = selectionKey(match.serverId, match.uri);
		let item = items.get(key);
		if (!item) {
			const { serverId, resource } = selectedLine(match);
			item = { key, serverId, resource, alwaysShow: true, label: match.label, iconPath: new vscode.ThemeIcon('search'), description: 'Text match', detail: match.detail };
			items.set(key, item);
		}
		return server === undefined ? item : { ...item, description: `Text match · ${escapeIconSyntax(server)}` };
	};

	/** A selected resource the listing does not have (a matched line): shown by its name. */
	const selectedItem = (selected: SelectedResource): ResourceItem => {
		const key = selectionKey(selected.serverId, selected.resource.uri);
		const item: ResourceItem = { key, serverId: selected.serverId, resource: selected.resource, alwaysShow: true, label: escapeIconSyntax(selected.resource.name), detail: escapeIconSyntax(selected.resource.uri) };
		items.set(key, item);
		return item;
	};

	const render = () => {
		const query = qp.value.trim();
		let shown: ResourceItem[];
		text.setQuery(query);
		if (query) {
			shown = service.search(query, PER_SERVER).hits.map(h => itemFor(h.node));
		} else {
			// Nothing typed: show what is checked so far (the selection plus this session's
			// checks), so the picks can be reviewed and unchecked before accepting.
			shown = [...checked].flatMap(key => {
				const known = items.get(key);
				if (known) {
					return [known];
				}
				const selected = service.selection.list().find(i => selectionKey(i.serverId, i.resource.uri) === key);
				const node = selected && service.server(selected.serverId)?.resources.resource(selected.resource.uri);
				return node ? [itemFor(node)] : selected ? [selectedItem(selected)] : [];
			});
		}
		const out: (ResourceItem | vscode.QuickPickItem)[] = [];
		for (const server of service.servers()) {
			for (const group of GROUP_ORDER) {
				const inGroup = shown.filter(i => i.serverId === server.id && (i.node ? i.node.group === group : group === 'other'));
				if (inGroup.length > 0) {
					out.push({ label: `${escapeIconSyntax(server.label)} · ${GROUP_LABELS[group]}`, kind: vscode.QuickPickItemKind.Separator });
					out.push(...inGroup);
					inGroup.forEach(i => seen.add(i.key));
				}
			}
		}
		const found = text.state;
		const message = query ? textMatchesMessage(found) : undefined;
		// The title carries the state: VS Code sorts the rows by label while a query is typed and
		// then drops the separators, the "Text matches" one too.
		qp.title = message === undefined ? TITLE : `${TITLE} · Text matches: ${message}`;
		if (message !== undefined) {
			// One group for every server's lines; a row names its server when more than one answered.
			const several = new Set(found.matches.map(m => m.serverId)).size > 1;
			const lines = found.matches.map(m => lineItem(m, several ? service.server(m.serverId)?.label ?? m.serverId : undefined));
			out.push({ label: `Text matches · ${message}`, kind: vscode.QuickPickItemKind.Separator });
			if (lines.length === 0) {
				// A separator alone can go unseen: the state shows as a row too (checking it does nothing).
				out.push({ label: message, iconPath: new vscode.ThemeIcon(found.searching ? 'loading~spin' : 'info'), alwaysShow: true });
			}
			out.push(...lines);
			lines.forEach(i => seen.add(i.key));
		}
		// Rows that look as they do now are not sent again (see ShownRows): pages arriving, a live
		// answer the same as before, a second server with nothing new, re-render every 150 ms.
		if (shownRows.changed(out.map(lookOf))) {
			applyingSelection = true;
			qp.items = out;
			qp.selectedItems = out.filter((i): i is ResourceItem => 'key' in i && checked.has(i.key));
			applyingSelection = false;
		}
		const loading = service.servers().some(s => s.resources.state.kind === 'loading' || s.connection.state.kind === 'connecting');
		qp.busy = loading || found.searching;
		const total = service.servers().reduce((n, s) => n + s.resources.size, 0);
		qp.placeholder = `Search ${total.toLocaleString('en-US')} resources${loading ? ' (loading…)' : ''}; check to select`;
	};

	const disposables: vscode.Disposable[] = [qp];
	let pending: NodeJS.Timeout | undefined;
	return new Promise(resolve => {
		let accepted = false;
		disposables.push(
			text,
			{ dispose: text.onDidChange(render).dispose },
			onTypingSettled(qp, render),
			qp.onDidChangeSelection(selected => {
				if (applyingSelection) {
					return;
				}
				const now = new Set(selected.filter((i): i is ResourceItem => 'key' in i).map(i => i.key));
				for (const item of qp.items) {
					if ('key' in item) {
						if (now.has(item.key)) {
							checked.add(item.key);
						} else {
							checked.delete(item.key);
						}
					}
				}
			}),
			// Pages keep arriving while it is open: re-run the search at most every 150 ms.
			{ dispose: service.onDidChange(() => {
				if (!pending) {
					pending = setTimeout(() => {
						pending = undefined;
						render();
					}, 150);
				}
			}).dispose },
			{ dispose: () => clearTimeout(pending) },
			qp.onDidAccept(() => {
				accepted = true;
				const add = [...checked].filter(k => items.has(k)).map(k => items.get(k)!)
					.map(item => ({ serverId: item.serverId, resource: item.resource }));
				const remove = [...seen].filter(k => !checked.has(k) && items.has(k)).map(k => items.get(k)!)
					.map(item => ({ serverId: item.serverId, uri: item.resource.uri }));
				service.selection.update(add, remove);
				qp.hide();
			}),
			qp.onDidHide(() => {
				disposables.forEach(d => d.dispose());
				resolve(accepted ? service.selection.size : undefined);
			}),
		);
		// Lists a server whose list changed while nothing showed it first (at once, not paced),
		// then keeps every listing following list_changed while the QuickPick is open.
		void service.loadAll();
		disposables.push(service.showing());
		render();
		qp.show();
	});
}
