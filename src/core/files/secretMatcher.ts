import { GitignoreRules } from './gitignoreRules';
import { NameGlobs } from './nameGlobs';
import { withoutTrailing } from '../trailing';

/**
 * Files that are never served whatever the settings say: credentials, keys, and the internals
 * of version control. `.gitignore` syntax, so a bare name matches at any depth.
 */
export const BUILT_IN_SECRETS: readonly string[] = [
	// `.env*` as documented: `.env-production`, `.env_local` and an editor's `.env~` hold the same secrets.
	'.env*', '*.env',
	'*.pem', '*.key', '*.p12', '*.pfx', '*.jks', '*.keystore', '*.kdbx', '*.gpg', '*.asc',
	'id_rsa*', 'id_dsa*', 'id_ecdsa*', 'id_ed25519*', '*.ppk',
	'.npmrc', '.yarnrc.yml', '.pypirc', '.netrc', '_netrc', '.pgpass', '.htpasswd',
	'.git-credentials', '.dockercfg', '**/.docker/config.json', 'credentials.json',
	'.ssh/', '.aws/', '.gnupg/', '**/.kube/config', '.terraform/', '*.tfstate', '*.tfstate.*',
	// `.git` without a slash: a worktree's or submodule's `.git` is a file naming its real
	// (absolute, often outside) git directory.
	'.git', '.hg/', '.svn/',
];

/**
 * The secrets deny-list, with .gitignore semantics, made cheap for the index's hot path: a
 * pattern without an inner slash matches a name at any depth, so those compile to one matcher
 * on the base name; the few with an inner slash (and any list using `!` negations) go through
 * git's matcher on the whole path. Callers check each ancestor directory themselves.
 *
 * Matching ignores case: on case-insensitive file systems (macOS, Windows) `.ENV` *is* `.env`,
 * and elsewhere `ID_RSA` or `Server.PEM` hold the same secrets. A case-insensitive regular
 * expression costs the same per name, so the hot path stays one test per name.
 */
export class SecretMatcher {
	private readonly fileName: NameGlobs;
	private readonly directoryName: NameGlobs;
	private readonly byPath: GitignoreRules | undefined;
	/**
	 * The last segments of the path patterns, in any case, when all are plain names
	 * (`**\/.kube/config` ends in `config`): a path whose name is none of them (in lower case) cannot
	 * match, and skips the path rules.
	 */
	private readonly byPathName: NameGlobs | undefined;

	constructor(patterns: readonly string[]) {
		const lines = patterns.map(p => p.trim()).filter(p => p !== '' && !p.startsWith('#'));
		if (lines.some(p => p.startsWith('!'))) {
			// Negations depend on order across all patterns: keep the full semantics.
			const all = new GitignoreRules(lines, true);
			this.fileName = new NameGlobs([]);
			this.directoryName = new NameGlobs([]);
			this.byPath = all;
			return;
		}
		const isNamePattern = (p: string) => !p.replace(/\/$/, '').includes('/');
		const names = lines.filter(isNamePattern);
		const forFiles = names.filter(p => !p.endsWith('/'));
		const forDirectories = names.map(p => p.replace(/\/$/, ''));
		this.fileName = new NameGlobs(forFiles);
		this.directoryName = new NameGlobs(forDirectories);
		const paths = lines.filter(p => !isNamePattern(p));
		this.byPath = paths.length > 0 ? new GitignoreRules(paths, true) : undefined;
		const lastSegments = paths.map(p => {
			const trimmed = withoutTrailing(p, '/');
			return trimmed.slice(trimmed.lastIndexOf('/') + 1);
		});
		this.byPathName = lastSegments.every(name => /^[\w.-]+$/.test(name)) ? new NameGlobs(lastSegments) : undefined;
	}

	matches(rel: string, isDirectory: boolean): boolean {
		const slash = rel.lastIndexOf('/');
		return this.matchesIn(rel.slice(0, slash + 1), rel.slice(slash + 1), isDirectory);
	}

	/**
	 * `matches` for `name` in the directory whose relative path (with its `/`) is `dirPrefix`;
	 * `lower` is the name in lower case, when the caller has it.
	 */
	matchesIn(dirPrefix: string, name: string, isDirectory: boolean, lower?: string): boolean {
		if ((isDirectory ? this.directoryName : this.fileName).matches(name, lower)) {
			return true;
		}
		if (this.byPath === undefined || (this.byPathName && !this.byPathName.matches(name, lower))) {
			return false;
		}
		const rel = dirPrefix + name;
		return this.byPath.ignores(isDirectory ? `${rel}/` : rel);
	}
}

