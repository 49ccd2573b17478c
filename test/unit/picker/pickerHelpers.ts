import { Event } from '../../../src/common/event';
import { ViewNode } from '../../../src/picker/pickerNodes';
import { Fixture } from '../../helpers/fixtureWorkspace';

/** Resolves when `predicate` holds, re-checked each time `event` fires; fails after `timeoutMs`. */
export function until(event: Event<unknown>, predicate: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
	return new Promise((resolve, reject) => {
		if (predicate()) {
			resolve();
			return;
		}
		const timer = setTimeout(() => {
			sub.dispose();
			reject(new Error(`timed out waiting for ${what}`));
		}, timeoutMs);
		const sub = event(() => {
			if (predicate()) {
				clearTimeout(timer);
				sub.dispose();
				resolve();
			}
		});
	});
}

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
