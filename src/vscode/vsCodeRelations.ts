import * as vscode from 'vscode';
import { TextPosition } from '../core/diagnostics/ports';
import { RelatedLocation, Relation, RelationSource } from '../core/symbols/relationPorts';

const LOCATION_COMMANDS = {
	'definitions': 'vscode.executeDefinitionProvider',
	'references': 'vscode.executeReferenceProvider',
	'implementations': 'vscode.executeImplementationProvider',
	'type-definitions': 'vscode.executeTypeDefinitionProvider',
} as const;

/** Definitions, references, implementations and calls from the language extensions' providers. Translation only. */
export class VsCodeRelations implements RelationSource {
	async related(relation: Relation, absPath: string, position: TextPosition): Promise<readonly RelatedLocation[]> {
		const uri = vscode.Uri.file(absPath);
		const at = new vscode.Position(position.line, position.character);
		if (relation === 'incoming-calls' || relation === 'outgoing-calls') {
			const items = await vscode.commands.executeCommand<vscode.CallHierarchyItem[] | undefined>('vscode.prepareCallHierarchy', uri, at) ?? [];
			const out: RelatedLocation[] = [];
			for (const item of items) {
				if (relation === 'incoming-calls') {
					const calls = await vscode.commands.executeCommand<vscode.CallHierarchyIncomingCall[] | undefined>('vscode.provideIncomingCalls', item) ?? [];
					out.push(...calls.map(c => fromItem(c.from)));
				} else {
					const calls = await vscode.commands.executeCommand<vscode.CallHierarchyOutgoingCall[] | undefined>('vscode.provideOutgoingCalls', item) ?? [];
					out.push(...calls.map(c => fromItem(c.to)));
				}
			}
			return out.filter(l => l.absPath !== '');
		}
		const found = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>(LOCATION_COMMANDS[relation], uri, at) ?? [];
		return found.map(fromLocation).filter(l => l.absPath !== '');
	}
}

function fromLocation(l: vscode.Location | vscode.LocationLink): RelatedLocation {
	if ('targetUri' in l) {
		return { absPath: l.targetUri.scheme === 'file' ? l.targetUri.fsPath : '', range: toRange(l.targetSelectionRange ?? l.targetRange) };
	}
	return { absPath: l.uri.scheme === 'file' ? l.uri.fsPath : '', range: toRange(l.range) };
}

function fromItem(item: vscode.CallHierarchyItem): RelatedLocation {
	return { absPath: item.uri.scheme === 'file' ? item.uri.fsPath : '', range: toRange(item.selectionRange), name: item.name };
}

function toRange(r: vscode.Range): RelatedLocation['range'] {
	return { start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } };
}
