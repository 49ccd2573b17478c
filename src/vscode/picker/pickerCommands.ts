import * as vscode from 'vscode';
import { escapeIconSyntax } from '../../picker/markdownText';
import { PickerNode, ResourceNode } from '../../picker/pickerNodes';
import { PickerService, ServerEntry, WORKSPACE_SERVER_ID } from '../../picker/pickerService';
import { ListedResource, ListedTemplate } from '../../picker/serverConnection';
import { fillUriTemplate } from '../../picker/templateFill';
import { attachSelection, AttachResult, AttachTarget } from './attach';
import { PICKER_COMMANDS } from './pickerCommandIds';
import { pickResources } from './pickResources';
import { PickerView } from './pickerView';
import { toDocumentUri } from './resourceUris';
import { registerServerSettingsCommands } from './serverSettingsCommands';
import { onTypingSettled } from './typing';

/** A resource named by a tree node or by `{ serverId, uri }` (tests and other extensions). */
type ResourceArg = ResourceNode | { serverId: string; uri: string };

export function registerPickerCommands(service: PickerService, view: PickerView, storage: vscode.Uri): vscode.Disposable {
	const openResource = async (arg?: ResourceArg) => {
		const target = arg ? resolve(arg) : undefined;
		if (!target) {
			return undefined;
		}
		const uri = toDocumentUri(target.server.id, target.server.label, target.uri, target.path);
		const doc = await vscode.workspace.openTextDocument(uri);
		await vscode.window.showTextDocument(doc, { preview: true });
		return doc;
	};

	const resolve = (arg: ResourceArg): { server: ServerEntry; uri: string; path: string } | undefined => {
		const server = service.server(arg.serverId);
		if (!server) {
			return undefined;
		}
		const uri = 'kind' in arg ? arg.resource.uri : arg.uri;
		const node = 'kind' in arg ? arg : server.resources.resource(uri);
		return { server, uri, path: node?.path ?? (uri.split('/').pop() || 'resource') };
	};

	const attach = async (arg?: AttachTarget | { target?: AttachTarget }): Promise<AttachResult | undefined> => {
		const target = typeof arg === 'string' ? arg : arg && typeof arg === 'object' && arg.target ? arg.target : configuredAttachTarget();
		return attachSelection(service, target, storage);
	};

	/** One click on the Suggested group: its resources join the selection, and the selection is attached. */
	const attachSuggested = async (node?: { serverId?: string; target?: AttachTarget }): Promise<AttachResult | undefined> => {
		const server = service.server(node?.serverId ?? WORKSPACE_SERVER_ID);
		const items = server?.suggestions.items() ?? [];
		if (!server || items.length === 0) {
			void vscode.window.showInformationMessage('Nothing is suggested right now.');
			return undefined;
		}
		service.selection.update(items.map(s => ({ serverId: server.id, resource: s.node.resource })));
		return attach(node?.target ? { target: node.target } : undefined);
	};

	const copyUri = async (node?: PickerNode, nodes?: readonly PickerNode[]) => {
		const chosen = nodes && nodes.length > 0 ? nodes : node ? [node] : view.view.selection;
		const uris = chosen.flatMap(n => n.kind === 'resource' ? [n.resource.uri] : n.kind === 'template' ? [n.template.uriTemplate] : []);
		if (uris.length === 0) {
			void vscode.window.showInformationMessage('Select a resource in the MCP Resources view to copy its URI.');
			return;
		}
		await vscode.env.clipboard.writeText(uris.join('\n'));
	};

	const refresh = async () => {
		await Promise.all(service.servers().map(s => s.connection.state.kind === 'error' || s.connection.state.kind === 'unavailable'
			? s.connection.reconnect('refresh')
			: s.resources.requestReload()));
	};

	const retryServer = async (node?: PickerNode) => {
		const servers = node ? [service.server(node.serverId)].filter((s): s is ServerEntry => !!s) : service.servers();
		await Promise.all(servers.map(async s => {
			await s.connection.reconnect('retry');
			await s.resources.requestReload();
		}));
	};

	const filter = async () => {
		const box = vscode.window.createInputBox();
		box.title = 'Filter MCP Resources';
		box.placeholder = 'Part of a name, path or URI (space-separated terms; fuzzy)';
		box.value = view.filter ?? '';
		void service.loadAll();
		const typing = onTypingSettled(box, value => view.setFilter(value));
		box.onDidAccept(() => {
			typing.flush();
			box.hide();
		});
		box.onDidHide(() => {
			typing.flush();
			typing.dispose();
			box.dispose();
		});
		box.show();
	};

	const fillTemplate = async (arg?: { serverId: string; template: ListedTemplate } | PickerNode) => {
		let server: ServerEntry | undefined;
		let template: ListedTemplate | undefined;
		if (arg && 'template' in arg) {
			server = service.server(arg.serverId);
			template = arg.template;
		} else {
			await service.loadAll();
			const choices = service.servers().flatMap(s => s.resources.templates.map(t => ({
				label: escapeIconSyntax(t.title ?? t.name), description: escapeIconSyntax(t.uriTemplate), detail: escapeIconSyntax(s.label), server: s, template: t,
			})));
			if (choices.length === 0) {
				void vscode.window.showInformationMessage('No connected server offers resource templates.');
				return;
			}
			// A server may offer many templates: typing part of a URI template finds one as well as its title.
			const chosen = await vscode.window.showQuickPick(choices, { title: 'Fill Template', placeHolder: 'Choose a resource template', matchOnDescription: true });
			server = chosen?.server;
			template = chosen?.template;
		}
		if (!server || !template) {
			return;
		}
		const chosenServer = server;
		const chosenTemplate = template;
		let uri: string | undefined;
		try {
			uri = await fillUriTemplate(template.uriTemplate, (variable, filled) => askVariable(chosenServer, chosenTemplate, variable, filled));
		} catch (err) {
			void vscode.window.showErrorMessage(`The server's template ${template.uriTemplate.slice(0, 200)} is not a valid URI template: ${(err as Error).message}`);
			return;
		}
		if (uri === undefined) {
			return;
		}
		const action = await vscode.window.showQuickPick(['Open', 'Add to Selection'], { title: uri, placeHolder: 'What to do with the resource' });
		const listed: ListedResource = server.resources.resource(uri)?.resource ?? { uri, name: uri.split('/').pop() || uri };
		if (action === 'Open') {
			await openResource({ serverId: server.id, uri });
		} else if (action === 'Add to Selection') {
			service.selection.update([{ serverId: server.id, resource: listed }]);
		}
	};

	const disposables = [
		registerServerSettingsCommands(service),
		vscode.commands.registerCommand(PICKER_COMMANDS.pickResources, () => pickResources(service)),
		vscode.commands.registerCommand(PICKER_COMMANDS.attachSelected, attach),
		vscode.commands.registerCommand(PICKER_COMMANDS.attachSuggested, attachSuggested),
		vscode.commands.registerCommand(PICKER_COMMANDS.attachToClipboard, () => attach('clipboard')),
		vscode.commands.registerCommand(PICKER_COMMANDS.attachToEditor, () => attach('editor')),
		vscode.commands.registerCommand(PICKER_COMMANDS.attachToChat, () => attach('chat')),
		vscode.commands.registerCommand(PICKER_COMMANDS.clearSelection, () => service.selection.clear()),
		vscode.commands.registerCommand(PICKER_COMMANDS.copyUri, copyUri),
		vscode.commands.registerCommand(PICKER_COMMANDS.refresh, refresh),
		vscode.commands.registerCommand(PICKER_COMMANDS.fillTemplate, fillTemplate),
		vscode.commands.registerCommand(PICKER_COMMANDS.openResource, openResource),
		vscode.commands.registerCommand(PICKER_COMMANDS.retryServer, retryServer),
		vscode.commands.registerCommand(PICKER_COMMANDS.filter, filter),
		vscode.commands.registerCommand(PICKER_COMMANDS.clearFilter, () => view.setFilter(undefined)),
		vscode.commands.registerCommand(PICKER_COMMANDS.showMore, (node?: PickerNode) => {
			if (node?.kind === 'more') {
				view.model.showMore(node);
			}
		}),
	];
	return { dispose: () => disposables.forEach(d => d.dispose()) };
}

/** Asks for one template variable, suggesting values from `completion/complete` as the user types. */
function askVariable(server: ServerEntry, template: ListedTemplate, variable: string, context: Readonly<Record<string, string>>): Promise<string | undefined> {
	const qp = vscode.window.createQuickPick<vscode.QuickPickItem & { value: string }>();
	qp.title = `${template.uriTemplate}: ${variable}`;
	qp.placeholder = `Value for "${variable}" (suggestions from the server)`;
	let request = 0;
	/** The value the listed suggestions are for. */
	let listedFor: string | undefined;
	const suggest = async (value: string) => {
		const mine = ++request;
		qp.busy = true;
		const values = await server.connection.complete(template.uriTemplate, variable, value, context).catch(() => [] as string[]);
		if (mine !== request) {
			return;
		}
		qp.busy = false;
		// Labels are escaped for display; `value` is what the server (or the user) wrote.
		const typed = value && !values.includes(value) ? [{ label: escapeIconSyntax(value), value, description: 'as typed', alwaysShow: true }] : [];
		qp.items = [...typed, ...values.map(v => ({ label: escapeIconSyntax(v), value: v, alwaysShow: true }))];
		listedFor = value;
	};
	return new Promise(resolve => {
		let done = false;
		qp.onDidChangeValue(v => void suggest(v));
		qp.onDidAccept(() => {
			done = true;
			// Until the server answers for what is typed, the list shows the suggestions for an
			// earlier value, the first one highlighted: Enter then means what is typed.
			resolve(listedFor === qp.value ? qp.selectedItems[0]?.value ?? qp.value : qp.value);
			qp.hide();
		});
		qp.onDidHide(() => {
			if (!done) {
				resolve(undefined);
			}
			qp.dispose();
		});
		void suggest('');
		qp.show();
	});
}

const ATTACH_TARGETS: readonly unknown[] = ['chat', 'editor', 'clipboard'] satisfies AttachTarget[];

/**
 * `mcpResources.attachTarget`, or its default (chat) with a warning when the value is none of
 * the three: a typo sent the bundle to the clipboard with the usual "Copied" message.
 */
function configuredAttachTarget(): AttachTarget {
	const value = vscode.workspace.getConfiguration('mcpResources').get<unknown>('attachTarget', 'chat');
	if (ATTACH_TARGETS.includes(value)) {
		return value as AttachTarget;
	}
	void vscode.window.showWarningMessage(`mcpResources.attachTarget is ${JSON.stringify(value)}, not chat, editor or clipboard: attaching to chat, the default.`);
	return 'chat';
}
