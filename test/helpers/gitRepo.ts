import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A real git repository in a temp folder, made and driven with the git binary. */
export class TestRepo {
	readonly root: string;

	constructor(name = 'repo', readonly parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwr-git-')))) {
		this.root = path.join(parent, name);
		fs.mkdirSync(this.root, { recursive: true });
		this.git('init', '-q');
	}

	git(...args: string[]): string {
		return execFileSync('git', ['-c', 'user.name=Test User', '-c', 'user.email=test@example.invalid', '-c', 'init.defaultBranch=main',
			'-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=/dev/null', ...args], {
			cwd: this.root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
			env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
		});
	}

	write(rel: string, text: string): void {
		const abs = path.join(this.root, rel);
		fs.mkdirSync(path.dirname(abs), { recursive: true });
		fs.writeFileSync(abs, text);
	}

	commitAll(message: string): string {
		this.git('add', '-A');
		this.git('commit', '-q', '-m', message);
		return this.git('rev-parse', 'HEAD').trim();
	}

	dispose(): void {
		fs.rmSync(this.parent, { recursive: true, force: true });
	}
}
