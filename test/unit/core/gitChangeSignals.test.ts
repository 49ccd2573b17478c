import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Event } from '../../../src/common/event';
import { ServedRule } from '../../../src/core/ports';
import { GitChangeSignals } from '../../../src/core/relevance/gitChangeSignals';
import { WorkspaceScope } from '../../../src/core/workspaceScope';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { StaticFolders } from '../../../src/node/staticSources';
import { FakeGitRepository, FakeGitSource } from '../../fakes/fakeGit';

/** A rule that serves everything once `load()` is called, as the files provider's does once its `.gitignore` files are read. */
function loadingRule(): { rule: ServedRule; load(): void } {
	let load!: () => void;
	const loaded = new Promise<void>(resolve => load = resolve);
	return {
		rule: { ready: () => loaded, isServedNow: () => true, isServed: async () => true, onDidChangeRules: Event.None },
		load,
	};
}

describe('relevance: git\'s changes as a signal', () => {
	let root: string;
	beforeEach(() => {
		root = mkdtempSync(path.join(tmpdir(), 'git-signals-'));
		writeFileSync(path.join(root, 'new.txt'), 'untracked\n');
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	it('waits, for a first answer, for a read that is in the ranking: one the rule changed under is not', async () => {
		const git = new FakeGitSource();
		const repo = new FakeGitRepository(root);
		repo.statusValue = { staged: [], unstaged: [], untracked: [{ path: 'new.txt', status: 'untracked' }], conflicts: [] };
		let asked!: () => void;
		const statusAsked = new Promise<void>(resolve => asked = resolve);
		const status = repo.status.bind(repo);
		repo.status = () => {
			asked();
			return status();
		};
		git.open(repo);
		const { rule, load } = loadingRule();
		const scope = new WorkspaceScope(new StaticFolders([root]), rule, new NodeFileSystem());
		const signals = new GitChangeSignals(git, scope, 50, () => undefined);
		try {
			const first = signals.startAndWait();
			await statusAsked;
			await new Promise(resolve => setImmediate(resolve)); // the read waits for the rule now
			// The rule changes while the read is located (as it loads at start-up): that read is
			// abandoned, and the one the change asks for comes after the throttle's interval.
			signals.scopeChanged();
			load();
			await first;
			assert.deepEqual([...signals.changes.keys()], [path.join(root, 'new.txt')]);
		} finally {
			signals.dispose();
			scope.dispose();
		}
	});
});
