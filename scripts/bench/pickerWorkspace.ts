// The picker benches' workspace: big/ with 5,000 entries, the rest as pkgNNN/modN/fileNNN.ts
// (~100 per folder). Generated once under BENCH_WORKSPACES/picker and reused.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BENCH_WORKSPACES } from './workspaceHome.js';

export const BIG_FOLDER_SIZE = 5_000;

export function makePickerWorkspace(files: number): string {
	const dir = path.join(BENCH_WORKSPACES, 'picker', `ws-${files}`);
	const stamp = path.join(dir, '.complete');
	if (fs.existsSync(stamp)) {
		return dir;
	}
	fs.rmSync(dir, { recursive: true, force: true });
	console.error(`generating ${files} files in ${dir} ...`);
	fs.mkdirSync(path.join(dir, 'big'), { recursive: true });
	for (let i = 0; i < BIG_FOLDER_SIZE; i++) {
		fs.writeFileSync(path.join(dir, 'big', `entry-${String(i).padStart(4, '0')}.txt`), `big ${i}\n`);
	}
	let n = BIG_FOLDER_SIZE;
	for (let p = 0; n < files; p++) {
		for (let m = 0; m < 10 && n < files; m++) {
			const folder = path.join(dir, `pkg${String(p).padStart(3, '0')}`, `mod${m}`);
			fs.mkdirSync(folder, { recursive: true });
			for (let f = 0; f < 100 && n < files; f++, n++) {
				fs.writeFileSync(path.join(folder, `file${String(f).padStart(3, '0')}.ts`), `export const v${n} = ${n};\n`);
			}
		}
	}
	fs.writeFileSync(path.join(dir, '.gitignore'), '.complete\n');
	fs.writeFileSync(stamp, '');
	return dir;
}
