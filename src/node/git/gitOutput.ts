import { GitCommit, GitFileChange, GitFileStatus, GitRef, GitStatus } from '../../core/git/ports';
import { withoutTrailing } from '../../core/trailing';

// Parsers of git's machine-readable outputs, fed raw output in tests.

/** Records separated by RS, fields by US: a commit message may hold anything else. */
export const COMMIT_FORMAT = '%x1e%H%x1f%P%x1f%aN%x1f%aE%x1f%aI%x1f%B';

export function parseCommits(stdout: string): GitCommit[] {
	return stdout.split('\x1e').filter(r => r.trim() !== '').map(record => {
		const [hash, parents, authorName, authorEmail, authorDate, ...message] = record.split('\x1f');
		return {
			hash: hash.trim(),
			parents: parents ? parents.split(' ').filter(Boolean) : [],
			authorName, authorEmail, authorDate,
			message: withoutTrailing(message.join('\x1f'), '\n'),
		};
	});
}

/** `git for-each-ref` fields, NUL-separated (ref names cannot hold NUL). */
export const REF_FORMAT = '%(refname)%00%(objectname)%00%(upstream:short)%00%(upstream:track,nobracket)';

export function parseRefs(stdout: string): GitRef[] {
	const refs: GitRef[] = [];
	for (const line of stdout.split('\n')) {
		if (!line) {
			continue;
		}
		const [refname, commit, upstream, track] = line.split('\0');
		let kind: GitRef['kind'];
		let name: string;
		if (refname.startsWith('refs/heads/')) {
			kind = 'branch';
			name = refname.slice('refs/heads/'.length);
		} else if (refname.startsWith('refs/remotes/')) {
			kind = 'remote';
			name = refname.slice('refs/remotes/'.length);
			if (name.endsWith('/HEAD')) {
				continue;
			}
		} else if (refname.startsWith('refs/tags/')) {
			kind = 'tag';
			name = refname.slice('refs/tags/'.length);
		} else {
			continue;
		}
		const ahead = /ahead (\d+)/.exec(track ?? '');
		const behind = /behind (\d+)/.exec(track ?? '');
		refs.push({
			name, kind, commit,
			...(upstream ? { upstream } : {}),
			...(ahead ? { ahead: Number(ahead[1]) } : {}),
			...(behind ? { behind: Number(behind[1]) } : {}),
		});
	}
	return refs;
}

const CODES: Record<string, GitFileStatus> = { M: 'modified', T: 'typeChanged', A: 'added', D: 'deleted', R: 'renamed', C: 'copied' };

/** `git status --porcelain=v2 --branch -z`. */
export function parseStatus(stdout: string): GitStatus {
	const fields = stdout.split('\0');
	let branch: string | undefined;
	let commit: string | undefined;
	let upstream: string | undefined;
	let ahead: number | undefined;
	let behind: number | undefined;
	const staged: GitFileChange[] = [];
	const unstaged: GitFileChange[] = [];
	const untracked: GitFileChange[] = [];
	const conflicts: GitFileChange[] = [];
	for (let i = 0; i < fields.length; i++) {
		const field = fields[i];
		if (field.startsWith('# branch.oid ')) {
			const oid = field.slice('# branch.oid '.length);
			commit = oid === '(initial)' ? undefined : oid;
		} else if (field.startsWith('# branch.head ')) {
			const head = field.slice('# branch.head '.length);
			branch = head === '(detached)' ? undefined : head;
		} else if (field.startsWith('# branch.upstream ')) {
			upstream = field.slice('# branch.upstream '.length);
		} else if (field.startsWith('# branch.ab ')) {
			const m = /^\+(\d+) -(\d+)$/.exec(field.slice('# branch.ab '.length));
			if (m) {
				ahead = Number(m[1]);
				behind = Number(m[2]);
			}
		} else if (field.startsWith('1 ') || field.startsWith('2 ')) {
			const parts = field.split(' ');
			const xy = parts[1];
			const pathStart = field.startsWith('1 ') ? 8 : 9;
			const p = parts.slice(pathStart).join(' ');
			const originalPath = field.startsWith('2 ') ? fields[++i] : undefined;
			const push = (code: string, into: GitFileChange[]) => {
				const status = CODES[code];
				if (status) {
					into.push({ path: p, status, ...(originalPath !== undefined && (code === 'R' || code === 'C') ? { originalPath } : {}) });
				}
			};
			push(xy[0], staged);
			push(xy[1], unstaged);
		} else if (field.startsWith('u ')) {
			conflicts.push({ path: field.split(' ').slice(10).join(' '), status: 'conflicted' });
		} else if (field.startsWith('? ')) {
			untracked.push({ path: field.slice(2), status: 'untracked' });
		}
	}
	return { branch, commit, upstream, ahead, behind, staged, unstaged, untracked, conflicts };
}
