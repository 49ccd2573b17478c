import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GitApiRepository, GitExtension } from '../../src/vscode/gitApi';
import { absPath, TestClient, waitFor, workspaceRoot } from './helpers';

function git(...args: string[]): string {
	return execFileSync('git', ['-c', 'user.name=Suite', '-c', 'user.email=suite@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
		cwd: workspaceRoot(), encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
	});
}

describe('git (git://, through the vscode.git extension)', () => {
	let client: TestClient;
	let repo: string;
	let original: string;
	const FILE = 'README.md';

	before(async () => {
		client = await TestClient.connect();
		repo = path.basename(workspaceRoot());
		original = fs.readFileSync(absPath(FILE), 'utf8');
		await waitFor(async () => (await client.listedUris()).has(`git://${repo}/status`), `git://${repo}/status is listed`, 30_000);
	});
	after(async () => {
		fs.writeFileSync(absPath(FILE), original);
		await client?.close();
	});

	it('lists the repository resources and templates', async () => {
		const uris = await client.listedUris();
		for (const suffix of ['status', 'diff', 'diff/staged', 'log', 'branches']) {
			assert.ok(uris.has(`git://${repo}/${suffix}`), `git://${repo}/${suffix}`);
		}
		// One repository, one set: the git extension hands out a new wrapper object per call.
		assert.deepEqual([...uris].filter(u => /^git:\/\/[^/]+\/status$/.test(u)), [`git://${repo}/status`]);
		const { resourceTemplates } = await client.client.listResourceTemplates();
		const templates = resourceTemplates.map(t => t.uriTemplate);
		assert.ok(templates.includes('git://{repo}/diff/{+path}') && templates.includes('git://{repo}/show/{ref}'), templates.join());
	});

	it('a modified file shows in /status and /diff, and a subscribed client is notified', async () => {
		await client.subscribe(`git://${repo}/status`);
		const since = client.mark();
		fs.writeFileSync(absPath(FILE), `${original}\nchanged by the git suite\n`);
		await since.updated(`git://${repo}/status`, 30_000);
		await waitFor(async () => {
			const status = JSON.parse(await client.readText(`git://${repo}/status`)) as { unstaged: { path: string }[] };
			return status.unstaged.some(c => c.path === FILE);
		}, `${FILE} in /status`, 30_000);
		const diff = await client.readText(`git://${repo}/diff`);
		assert.match(diff, /\+changed by the git suite/);
		const status = await client.readText(`git://${repo}/status`);
		assert.ok(!status.includes('.env'), 'the untracked secret is not mentioned');
		const one = await client.readText(`git://${repo}/diff/${FILE}`);
		assert.match(one, /\+changed by the git suite/);
	});

	it('diffs are plain unified diffs without secrets whatever diff tool git is configured with', async () => {
		// An external diff tool that prints what changed its own way (difftastic does), secrets included.
		const tool = path.join(workspaceRoot(), '..', 'external-diff.sh');
		fs.writeFileSync(tool, '#!/bin/sh\necho "EXTERNAL TOOL: $1"\ncat "$5"\n', { mode: 0o755 });
		const secret = 'keys/deploy.pem';
		fs.mkdirSync(absPath('keys'), { recursive: true });
		fs.writeFileSync(absPath(secret), 'first\n');
		git('add', '-f', secret);
		git('config', 'diff.external', tool);
		try {
			fs.writeFileSync(absPath(secret), 'first\nPEM-SECRET-CHANGED\n');
			fs.writeFileSync(absPath(FILE), `${original}\nchanged beside a secret\n`);
			await waitFor(async () => /\+changed beside a secret/.test(await client.readText(`git://${repo}/diff`)), 'the change in /diff, as a unified diff', 30_000);
			const diff = await client.readText(`git://${repo}/diff`);
			assert.ok(!/PEM-SECRET|EXTERNAL TOOL/.test(diff), diff);
			assert.match(diff, /1 file not shown/);
			assert.match(await client.readText(`git://${repo}/diff/${FILE}`), /\+changed beside a secret/);
		} finally {
			git('config', '--unset', 'diff.external');
			git('rm', '-q', '--cached', '-f', secret);
			fs.rmSync(absPath('keys'), { recursive: true, force: true });
			fs.rmSync(tool, { force: true });
			fs.writeFileSync(absPath(FILE), original);
		}
	});

	it('notifies each resource when what it shows moved: an edit, staging, a branch made in a terminal', async () => {
		const uri = (suffix: string) => `git://${repo}/${suffix}`;
		for (const suffix of ['status', 'diff', 'diff/staged', 'log', 'branches']) {
			await client.subscribe(uri(suffix));
		}
		const file = 'notes/git-kinds.txt';
		try {
			const from = client.updated.length;
			let since = client.mark();
			fs.writeFileSync(absPath(FILE), `${original}\nedited for the kinds check\n`);
			await since.updated(uri('diff'), 30_000);
			await since.updated(uri('status'), 30_000);
			// Status is the last of a repository's resources in one change's batch: the edit's
			// batch is all here, and HEAD and refs did not move.
			const afterEdit = client.updated.slice(from);
			assert.ok(!afterEdit.includes(uri('log')) && !afterEdit.includes(uri('branches')), afterEdit.join(', '));
			since = client.mark();
			fs.writeFileSync(absPath(file), 'staged by the kinds check\n');
			git('add', file);
			await since.updated(uri('diff/staged'), 30_000);
			since = client.mark();
			// No HEAD or state the API shows moves: only the refs folder tells.
			git('branch', 'kinds-check');
			await since.updated(uri('branches'), 30_000);
			assert.match(await client.readText(uri('branches')), /kinds-check/);
		} finally {
			git('update-ref', '-d', 'refs/heads/kinds-check');
			git('rm', '-q', '--cached', '-f', '--ignore-unmatch', file);
			fs.rmSync(absPath(file), { force: true });
			fs.writeFileSync(absPath(FILE), original);
		}
	});

	it('tells no subscriber that a secret or an ignored file was written, made or deleted', async () => {
		const uri = (suffix: string) => `git://${repo}/${suffix}`;
		await client.subscribe(uri('diff'));
		await client.subscribe(uri('log'));
		const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
		assert.ok(extension, 'the vscode.git extension');
		const api = (extension.isActive ? extension.exports : await extension.activate()).getAPI(1);
		const gitRepo: GitApiRepository | undefined = api.repositories.find(r => r.rootUri.fsPath === workspaceRoot());
		assert.ok(gitRepo?.status, 'the workspace repository in the git API');
		const secret = fs.readFileSync(absPath('.env'), 'utf8');
		const ignored = fs.readFileSync(absPath('ignored.log'), 'utf8');
		/** Waits until a branch made now is notified: whatever was notified before it is here. */
		const fence = async (branch: string) => {
			const since = client.mark();
			git('branch', branch);
			await since.updated(uri('log'), 30_000);
		};
		try {
			// The tests before this one wrote served files: the git extension's status of them, and
			// the index git rewrites while it refreshes its stat data, come first.
			await gitRepo.status();
			await fence('quiet-check-before');
			const from = client.updated.length;
			fs.writeFileSync(absPath('.env'), 'FIXTURE_SECRET=written-by-the-git-suite\n');
			fs.writeFileSync(absPath('ignored.log'), 'written by the git suite\n');
			fs.writeFileSync(absPath('notes/made-by-the-git-suite.pem'), 'a new secret\n');
			fs.mkdirSync(absPath('build'), { recursive: true });
			fs.writeFileSync(absPath('build/out.js'), 'an ignored build output\n');
			fs.rmSync(absPath('build/out.js'));
			// The git extension runs a status after every write it sees; one asked for now is sure
			// to come before the branch below, and its state event is what the host used to take
			// for a working-tree change.
			await gitRepo.status();
			// A branch moves the log and not the diff: once the log's notification is here, one
			// for the diff from the writes above would have come before it.
			await fence('quiet-check');
			const heard = client.updated.slice(from);
			assert.ok(!heard.includes(uri('diff')), `notified after writes to unserved files: ${heard.join(', ')}`);
		} finally {
			git('update-ref', '-d', 'refs/heads/quiet-check-before');
			git('update-ref', '-d', 'refs/heads/quiet-check');
			fs.writeFileSync(absPath('.env'), secret);
			fs.writeFileSync(absPath('ignored.log'), ignored);
			fs.rmSync(absPath('notes/made-by-the-git-suite.pem'), { force: true });
			fs.rmSync(absPath('build'), { recursive: true, force: true });
		}
	});

	it('a commit shows in /log and notifies its subscribers', async () => {
		await client.subscribe(`git://${repo}/log`);
		const since = client.mark();
		fs.writeFileSync(absPath('notes/git-suite.txt'), 'committed by the git suite\n');
		git('add', 'notes/git-suite.txt');
		git('commit', '-q', '-m', 'git suite commit');
		const hash = git('rev-parse', 'HEAD').trim();
		await since.updated(`git://${repo}/log`, 30_000);
		await waitFor(async () => {
			const log = JSON.parse(await client.readText(`git://${repo}/log`)) as { commits: { hash: string; subject: string }[] };
			return log.commits[0]?.hash === hash && log.commits[0].subject === 'git suite commit';
		}, 'the commit at the top of /log', 30_000);
		const shown = await client.readText(`git://${repo}/show/${hash}`);
		assert.match(shown, /\+committed by the git suite/);
	});

	it('serves no commit another repository lends through .git/objects/info/alternates, by full or short hash', async () => {
		const other = fs.mkdtempSync(path.join(workspaceRoot(), '..', 'lender-'));
		const inOther = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Other', '-c', 'user.email=other@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
			cwd: other, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
		});
		const alternates = path.join(workspaceRoot(), '.git', 'objects', 'info', 'alternates');
		try {
			inOther('init', '-q');
			fs.writeFileSync(path.join(other, 'plan.txt'), 'the lender\'s private plan\n');
			inOther('add', 'plan.txt');
			inOther('commit', '-q', '-m', 'lender only');
			const foreign = inOther('rev-parse', 'HEAD').trim();
			fs.mkdirSync(path.dirname(alternates), { recursive: true });
			fs.writeFileSync(alternates, `${path.join(other, '.git', 'objects')}\n`);
			assert.match(git('cat-file', '-t', foreign), /commit/, 'git itself now finds the lender\'s commit here');
			for (const ref of [foreign, foreign.slice(0, 8)]) {
				await assert.rejects(client.readText(`git://${repo}/show/${ref}`), /not found|-32602|-32002/i, ref);
			}
			const own = git('rev-parse', 'HEAD').trim();
			assert.match(await client.readText(`git://${repo}/show/${own.slice(0, 8)}`), new RegExp(own));
		} finally {
			fs.rmSync(alternates, { force: true });
			fs.rmSync(other, { recursive: true, force: true });
		}
	});
});
