import * as vscode from 'vscode';
import { escapeIconSyntax } from '../../picker/markdownText';
import { GROUP_LABELS, GROUP_ORDER, ResourceNode } from '../../picker/pickerNodes';
import { PickerService } from '../../picker/pickerService';
import { selectionKey } from '../../picker/selection';
import { estimateTokensFromSize } from '../../picker/tokenCount';
import { formatSize, formatTokens } from '../../picker/tokenEstimate';
import { onTypingSettled } from './typing';

interface ResourceItem extends vscode.QuickPickItem {
	readonly key: string;
	readonly node: ResourceNode;
}

const PER_SERVER = 100;

/**
 * "Pick Resources...": a multi-select QuickPick over every server. Our own index filters (VS
 * Code's built-in filter would have to hold 100,000 items); results are grouped by server and
 * kind, and `alwaysShow` keeps VS Code from filtering them a second time.
 * Resolves with the number of resources selected afterwards, or undefined when cancelled.
 */
export function pickResources(service: PickerService): Promise<number | undefined> {
	const qp = vscode.window.createQuickPick<ResourceItem | vscode.QuickPickItem>();
	qp.title = 'Pick MCP Resources';
	qp.canSelectMany = true;
	qp.matchOnDescription = true;
	qp.placeholder = 'Type to search names and URIs of every server; check to select';
	const items = new Map<string, ResourceItem>();
	const checked = new Set(service.selection.list().map(i => selectionKey(i.serverId, i.resource.uri)));
	const seen = new Set<string>();
	let applyingSelection = false;

	const itemFor = (node: ResourceNode): ResourceItem => {
		const key = selectionKey(node.serverId, node.resource.uri);
		let item = items.get(key);
		if (!item) {
			const folder = node.path.length > node.label.length ? node.path.slice(0, node.path.length - node.label.length - 1) : '';
			const size = node.resource.size !== undefined ? `${formatSize(node.resource.size)} · ${formatTokens(estimateTokensFromSize(node.resource.size))}` : '';
			item = {
				key, node, alwaysShow: true,
				label: `$(${node.group === 'files' ? 'file' : 'symbol-file'}) ${escapeIconSyntax(node.label)}`,
				description: escapeIconSyntax([folder, size].filter(Boolean).join('  ')),
				detail: node.group === 'files' ? undefined : escapeIconSyntax(node.resource.uri),
			};
			items.set(key, item);
		}
		return item;
	};

	const render = () => {
		const query = qp.value.trim();
		let shown: ResourceItem[];
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
				return node ? [itemFor(node)] : [];
			});
		}
		const out: (ResourceItem | vscode.QuickPickItem)[] = [];
		for (const server of service.servers()) {
			for (const group of GROUP_ORDER) {
				const inGroup = shown.filter(i => i.node.serverId === server.id && i.node.group === group);
				if (inGroup.length > 0) {
					out.push({ label: `${escapeIconSyntax(server.label)} · ${GROUP_LABELS[group]}`, kind: vscode.QuickPickItemKind.Separator });
					out.push(...inGroup);
					inGroup.forEach(i => seen.add(i.key));
				}
			}
		}
		applyingSelection = true;
		qp.items = out;
		qp.selectedItems = out.filter((i): i is ResourceItem => 'key' in i && checked.has(i.key));
		applyingSelection = false;
		const loading = service.servers().some(s => s.resources.state.kind === 'loading' || s.connection.state.kind === 'connecting');
		qp.busy = loading;
		const total = service.servers().reduce((n, s) => n + s.resources.size, 0);
		qp.placeholder = `Search ${total.toLocaleString('en-US')} resources${loading ? ' (loading…)' : ''}; check to select`;
	};

	const disposables: vscode.Disposable[] = [qp];
	let pending: NodeJS.Timeout | undefined;
	return new Promise(resolve => {
		let accepted = false;
		disposables.push(
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
				const add = [...checked].filter(k => items.has(k)).map(k => items.get(k)!.node)
					.map(node => ({ serverId: node.serverId, resource: node.resource }));
				const remove = [...seen].filter(k => !checked.has(k) && items.has(k)).map(k => items.get(k)!.node)
					.map(node => ({ serverId: node.serverId, uri: node.resource.uri }));
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
