import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { GitCli } from './gitProcess';

/** Files by which a repository borrows another object store (`git clone --reference`, `--shared`). */
const ALTERNATES_FILES = ['alternates', 'http-alternates'];

async function exists(file: string): Promise<boolean> {
	try {
		await stat(file);
		return true;
	} catch {
		return false;
	}
}

/**
 * Whether a commit belongs to one repository's own history. A cloned folder's
 * `objects/info/alternates` (or `http-alternates`, or a `GIT_ALTERNATE_OBJECT_DIRECTORIES` in the
 * environment the editor's git runs in) can name any object store on the machine, and git then
 * resolves that store's commits, by a guessed short hash too, as the folder's. With alternates,
 * only commits reachable from the repository's refs or HEAD count; without them (the usual
 * case) every object git finds is the repository's own, and no git call is made.
 */
export class OwnHistory {
	private commonDir: Promise<string | undefined> | undefined;

	/**
	 * @param commonDir the repository's common git directory when known (headless); otherwise
	 * asked of git once, on the first commit read.
	 */
	constructor(private readonly cli: GitCli, private readonly root: string, commonDir?: string) {
		if (commonDir !== undefined) {
			this.commonDir = Promise.resolve(commonDir);
		}
	}

	async contains(hash: string): Promise<boolean> {
		if (!/^[0-9a-f]{40,64}$/.test(hash)) {
			return false;
		}
		if (!(await this.borrowsObjects())) {
			return true;
		}
		try {
			// Prints the commit unless a ref or HEAD reaches it. Our git runs without the inherited
			// GIT_ALTERNATE_OBJECT_DIRECTORIES (see GitCli), so an object only that names fails here.
			const { stdout } = await this.cli.run(this.root, ['rev-list', '-n1', hash, '--not', '--all', '--']);
			return stdout.trim() === '';
		} catch {
			return false;
		}
	}

	private async borrowsObjects(): Promise<boolean> {
		if (process.env.GIT_ALTERNATE_OBJECT_DIRECTORIES) {
			return true;
		}
		// Looked up on each read (two stats): alternates can be added after the folder was opened.
		const commonDir = await (this.commonDir ??= this.askCommonDir());
		if (commonDir === undefined) {
			return true; // cannot tell: check, do not trust
		}
		const info = path.join(commonDir, 'objects', 'info');
		const found = await Promise.all(ALTERNATES_FILES.map(name => exists(path.join(info, name))));
		return found.some(Boolean);
	}

	private async askCommonDir(): Promise<string | undefined> {
		try {
			const { stdout } = await this.cli.run(this.root, ['rev-parse', '--git-common-dir']);
			const dir = stdout.trim();
			return dir ? path.resolve(this.root, dir) : undefined;
		} catch {
			this.commonDir = undefined; // asked again next time
			return undefined;
		}
	}
}
