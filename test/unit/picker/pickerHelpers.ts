import { ViewNode } from '../../../src/picker/pickerNodes';
import { Fixture } from '../../helpers/fixtureWorkspace';

/** Rows as short strings: `name/` for a folder, the label of a resource, `more(n)`, else the kind. */
export function rowLabels(nodes: readonly ViewNode[]): string[] {
	return nodes.map(n => n.kind === 'folder' ? `${n.name}/` : n.kind === 'resource' ? n.label : n.kind === 'more' ? `more(${n.remaining})` : n.kind);
}

/** The tree the picker tests browse: many/f00.txt … f24.txt (more than a page) and src/deep/er/x.ts. */
export function writeTreeFiles(fx: Fixture): void {
	for (let i = 0; i < 25; i++) {
		fx.write(`many/f${String(i).padStart(2, '0')}.txt`, `file ${i}\n`);
	}
	fx.write('src/deep/er/x.ts', 'x\n');
}
