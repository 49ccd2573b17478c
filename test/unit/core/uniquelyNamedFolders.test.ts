import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Emitter } from '../../../src/common/event';
import { WorkspaceFolder, WorkspaceFoldersSource } from '../../../src/core/ports';
import { UniquelyNamedFolders } from '../../../src/core/uniquelyNamedFolders';
import { scopeOver } from '../../helpers/workspaceScope';

/** Folders as VS Code gives them: each under its own name, which any number may share. */
class EditorFolders implements WorkspaceFoldersSource {
	private readonly emitter = new Emitter<void>();
	readonly onDidChange = this.emitter.event;
	constructor(private list: WorkspaceFolder[]) {}
	folders(): readonly WorkspaceFolder[] {
		return this.list;
	}
	set(list: WorkspaceFolder[]): void {
		this.list = list;
		this.emitter.fire();
	}
}

describe('workspace folders that share a name (multi-root in the editor)', () => {
	let tmp: string;
	const folder = (dir: string, name = path.basename(dir)): WorkspaceFolder => ({ name, path: path.join(tmp, dir) });

	beforeEach(() => {
		tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mwr-names-')));
		for (const dir of ['one/app', 'two/app', 'three/app', 'lib']) {
			mkdirSync(path.join(tmp, dir), { recursive: true });
			writeFileSync(path.join(tmp, dir, 'x.ts'), `${dir}\n`);
		}
	});

	afterEach(() => rmSync(tmp, { recursive: true, force: true }));

	it('gives every file its own name, the second `app` named `app-2` as the headless host names it', async () => {
		const source = new EditorFolders([folder('one/app'), folder('two/app'), folder('lib')]);
		const { files, scope } = scopeOver(new UniquelyNamedFolders(source));
		try {
			await files.ready();
			const list = files.list();
			const names = Array.from({ length: list.length }, (_, i) => list.at(i)!.name).sort();
			assert.deepEqual(names, ['app-2/x.ts', 'app/x.ts', 'lib/x.ts']);
			// Names resolve back to the folder they came from (problems and outline paths do this).
			assert.equal((await scope.resolveDisplay('app-2/x.ts'))?.absPath, path.join(tmp, 'two/app/x.ts'));
			assert.equal((await scope.resolveDisplay('app/x.ts'))?.absPath, path.join(tmp, 'one/app/x.ts'));
		} finally {
			scope.dispose();
		}
	});

	it('keeps a folder\'s name while others are added and removed, and frees a removed folder\'s name', () => {
		const source = new EditorFolders([folder('one/app'), folder('two/app')]);
		const named = new UniquelyNamedFolders(source);
		let changes = 0;
		named.onDidChange(() => changes++);
		const names = () => named.folders().map(f => `${f.name}=${path.relative(tmp, f.path)}`);
		assert.deepEqual(names(), ['app=one/app', 'app-2=two/app']);

		source.set([folder('two/app')]);
		assert.deepEqual(names(), ['app-2=two/app'], 'the folder left open keeps its name');
		source.set([folder('three/app'), folder('two/app')]);
		assert.deepEqual(names(), ['app=three/app', 'app-2=two/app'], 'a newcomer takes the free name, even placed first');
		source.set([folder('three/app'), folder('two/app'), folder('one/app')]);
		assert.deepEqual(names(), ['app=three/app', 'app-2=two/app', 'app-3=one/app']);
		assert.equal(changes, 3, 'each change of the folders is passed on');
		named.dispose();
	});

	it('makes a name a `.code-workspace` gave (`a/b`, empty, `..`) one path segment', async () => {
		const source = new EditorFolders([folder('one/app', 'web/app'), folder('two/app', ''), folder('lib', '..')]);
		const { files, scope } = scopeOver(new UniquelyNamedFolders(source));
		try {
			await files.ready();
			const list = files.list();
			const names = Array.from({ length: list.length }, (_, i) => list.at(i)!.name).sort();
			assert.deepEqual(names, ['app/x.ts', 'lib/x.ts', 'web-app/x.ts']);
			assert.equal((await scope.resolveDisplay('web-app/x.ts'))?.absPath, path.join(tmp, 'one/app/x.ts'));
		} finally {
			scope.dispose();
		}
	});
});
