import { InvalidParams } from '../errors';

/** VS Code's SymbolKind names, in its order: what `kind` says in outlines and symbol searches. */
export const SYMBOL_KINDS = [
	'File', 'Module', 'Namespace', 'Package', 'Class', 'Method', 'Property', 'Field', 'Constructor', 'Enum', 'Interface',
	'Function', 'Variable', 'Constant', 'String', 'Number', 'Boolean', 'Array', 'Object', 'Key', 'Null', 'EnumMember',
	'Struct', 'Event', 'Operator', 'TypeParameter',
] as const;

const byLowerName = new Map<string, string>(SYMBOL_KINDS.map(k => [k.toLowerCase(), k]));

/** A kind's number in SYMBOL_KINDS (0 for a name that is not one, which no grammar or editor gives). */
export function kindIndex(kind: string): number {
	const i = (SYMBOL_KINDS as readonly string[]).indexOf(kind);
	return i < 0 ? 0 : i;
}

/** `kind=class,function` as the set of kind names, any letter case; an unknown one is an InvalidParams listing them. */
export function parseKinds(value: string): ReadonlySet<string> {
	const out = new Set<string>();
	for (const part of value.split(',')) {
		const kind = byLowerName.get(part.trim().toLowerCase());
		if (!kind) {
			throw new InvalidParams(`Unknown kind "${part.trim().slice(0, 40)}": kinds are ${SYMBOL_KINDS.join(', ')} (comma-separated, any case)`);
		}
		out.add(kind);
	}
	return out;
}
