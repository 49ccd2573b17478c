import { Emitter } from '../../common/event';
import { Disposable, IDisposable, nothingToDispose } from '../../common/lifecycle';
import { matchCompletion } from '../completions';
import { ResourceNotFound } from '../errors';
import { JSON_MIME } from '../mime';
import { Completion, ResourceChange, ResourceContent, ResourceEntry, ResourceProvider, TemplateEntry } from '../resource';
import { fileUri } from '../uriGuard';
import { UrisByFile } from '../urisByFile';
import { decodePath, encodePath, ownIfDisposable, ScopedPath, WorkspaceScope } from '../workspaceScope';
import { DiagnosticsSource, Problem, ProblemSeverity } from './ports';
import { addCounts, countProblems, describeCounts, emptyCounts, plural, ProblemCounts } from './problemSummary';

export const DIAGNOSTICS_WORKSPACE_URI = 'diagnostics://workspace';
export const DIAGNOSTICS_FILE_TEMPLATE = 'diagnostics://file/{+path}';
const FILE_PREFIX = 'diagnostics://file/';
/** The workspace resource lists at most this many problems, errors first. */
export const MAX_WORKSPACE_PROBLEMS = 1000;

const SEVERITY_ORDER: Record<ProblemSeverity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

interface FileProblems {
	readonly scoped: ScopedPath;
	readonly counts: ProblemCounts;
}

/** The diagnostics resource URI of a workspace-relative (display) path. */
export function diagnosticsFileUri(display: string): string {
	return FILE_PREFIX + encodePath(display);
}

/**
 * The workspace's problems: one resource for all of them and one per file that has any.
 * Kept incrementally from the source's change events; only files in scope are mentioned.
 */
export class DiagnosticsProvider extends Disposable implements ResourceProvider {
	readonly id = 'diagnostics';
	readonly summary = 'problems (diagnostics://workspace, diagnostics://file/{path})';
	private readonly changeEmitter = this._register(new Emitter<ResourceChange>());
	readonly onDidChange = this.changeEmitter.event;
	/** Files with problems by display path; undefined until first needed. */
	private files: Map<string, FileProblems> | undefined;
	private sorted: ResourceEntry[] | undefined;
	/** Other spellings clients subscribed to files' problems by (`@` as the template expands it, `%c3%a9`), by own URI, while subscribed. */
	private readonly spellings = new UrisByFile();

	constructor(private readonly source: DiagnosticsSource, private readonly scope: WorkspaceScope) {
		super();
		ownIfDisposable(source, d => this._register(d));
		this._register(scope);
		this._register(source.onDidChange(paths => this.onSourceChanged(paths)));
		this._register(scope.onDidChange(() => this.rescan()));
	}

	ready(): Promise<void> {
		return this.scope.ready();
	}

	handles(uri: string): boolean {
		return /^diagnostics:/i.test(uri);
	}

	list(): readonly ResourceEntry[] {
		if (!this.sorted) {
			const files = this.scan();
			const total = emptyCounts();
			for (const file of files.values()) {
				addCounts(total, file.counts);
			}
			const entries: ResourceEntry[] = [{
				uri: DIAGNOSTICS_WORKSPACE_URI,
				name: 'problems',
				title: 'Workspace problems',
				description: `${describeCounts(total)} in ${plural(files.size, 'file')}`,
				mimeType: JSON_MIME,
				annotations: { priority: total.errors > 0 ? 0.9 : 0.6, audience: ['assistant'] },
			}];
			for (const file of files.values()) {
				entries.push({
					uri: diagnosticsFileUri(file.scoped.display),
					name: `problems: ${file.scoped.display}`,
					title: `Problems in ${file.scoped.display}`,
					description: describeCounts(file.counts),
					mimeType: JSON_MIME,
					annotations: { priority: file.counts.errors > 0 ? 0.8 : file.counts.warnings > 0 ? 0.5 : 0.3, audience: ['assistant'] },
				});
			}
			entries.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
			this.sorted = entries;
		}
		return this.sorted;
	}

	templates(): readonly TemplateEntry[] {
		return [{
			uriTemplate: DIAGNOSTICS_FILE_TEMPLATE,
			name: 'problems-of-file',
			title: 'Problems of a file',
			description: 'The problems of one workspace file (workspace-relative path; an empty list when it has none). ' +
				'JSON; ranges are zero-based. Completion suggests files that have problems.',
			mimeType: JSON_MIME,
		}];
	}

	async read(uri: string): Promise<ResourceContent[]> {
		await this.ready(); // the rules decide what `scan` keeps; before they load it keeps nothing
		if (uri === DIAGNOSTICS_WORKSPACE_URI) {
			return this.readWorkspace(uri);
		}
		const scoped = await this.resolveFileUri(uri);
		const problems = [...this.source.get(scoped.absPath)].sort(byPosition);
		const counts = countProblems(problems);
		const body = {
			file: scoped.display,
			uri: fileUri(scoped.absPath),
			summary: counts,
			problems: problems.map(p => toJson(scoped.display, p)),
		};
		return [{ uri, mimeType: JSON_MIME, text: JSON.stringify(body, null, 2) }];
	}

	async subscribe(uri: string): Promise<IDisposable> {
		// Change events are judged by the loaded rules: load them before anyone listens.
		await this.ready();
		if (uri === DIAGNOSTICS_WORKSPACE_URI) {
			return nothingToDispose;
		}
		const own = diagnosticsFileUri((await this.resolveFileUri(uri)).display);
		return own === uri ? nothingToDispose : this.spellings.hold(own, uri);
	}

	async complete(uriTemplate: string, argument: string, value: string): Promise<Completion | undefined> {
		if (uriTemplate !== DIAGNOSTICS_FILE_TEMPLATE || argument !== 'path') {
			return undefined;
		}
		await this.ready();
		return matchCompletion([...this.scan().keys()].sort(), value.replace(/^\/+/, ''));
	}

	private readWorkspace(uri: string): ResourceContent[] {
		const files = this.scan();
		const all: { display: string; problem: Problem }[] = [];
		const total = emptyCounts();
		for (const file of files.values()) {
			for (const problem of this.source.get(file.scoped.absPath)) {
				all.push({ display: file.scoped.display, problem });
			}
			addCounts(total, file.counts);
		}
		all.sort((a, b) => SEVERITY_ORDER[a.problem.severity] - SEVERITY_ORDER[b.problem.severity]
			|| (a.display < b.display ? -1 : a.display > b.display ? 1 : 0)
			|| byPosition(a.problem, b.problem));
		const shown = all.slice(0, MAX_WORKSPACE_PROBLEMS);
		const body: Record<string, unknown> = {
			summary: { ...total, files: files.size },
			problems: shown.map(p => toJson(p.display, p.problem)),
		};
		if (shown.length < all.length) {
			body.truncated = true;
			body.omitted = all.length - shown.length;
		}
		return [{ uri, mimeType: JSON_MIME, text: JSON.stringify(body, null, 2) }];
	}

	private async resolveFileUri(uri: string): Promise<ScopedPath> {
		if (!uri.startsWith(FILE_PREFIX) || /[?#]/.test(uri)) {
			throw new ResourceNotFound(uri);
		}
		const display = decodePath(uri.slice(FILE_PREFIX.length));
		const scoped = display === undefined ? undefined : await this.scope.resolveDisplay(display);
		if (!scoped) {
			throw new ResourceNotFound(uri);
		}
		return scoped;
	}

	private scan(): Map<string, FileProblems> {
		if (!this.files) {
			const files = new Map<string, FileProblems>();
			for (const [absPath, problems] of this.source.all()) {
				const scoped = this.scope.locate(absPath);
				if (scoped && problems.length > 0) {
					files.set(scoped.display, { scoped, counts: countProblems(problems) });
				}
			}
			this.files = files;
		}
		return this.files;
	}

	private onSourceChanged(paths: readonly string[]): void {
		const updated = new Set<string>();
		let listChanged = false;
		for (const absPath of paths) {
			const scoped = this.scope.locate(absPath);
			if (!scoped) {
				continue;
			}
			updated.add(diagnosticsFileUri(scoped.display));
			if (this.files) {
				const problems = this.source.get(absPath);
				const had = this.files.has(scoped.display);
				if (problems.length > 0) {
					this.files.set(scoped.display, { scoped, counts: countProblems(problems) });
				} else {
					this.files.delete(scoped.display);
				}
				listChanged ||= had !== problems.length > 0;
			}
		}
		if (updated.size === 0) {
			return;
		}
		updated.add(DIAGNOSTICS_WORKSPACE_URI);
		this.sorted = undefined;
		this.changeEmitter.fire({ updated: this.spellings.withHeld([...updated]), listChanged });
	}

	private rescan(): void {
		const before = this.files;
		this.files = undefined;
		this.sorted = undefined;
		if (before) {
			const after = this.scan();
			const updated = new Set<string>([DIAGNOSTICS_WORKSPACE_URI]);
			for (const key of [...before.keys(), ...after.keys()]) {
				updated.add(diagnosticsFileUri(key));
			}
			this.changeEmitter.fire({ updated: this.spellings.withHeld([...updated]), listChanged: true });
		}
	}
}

function byPosition(a: Problem, b: Problem): number {
	return a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character
		|| SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity];
}

function toJson(display: string, p: Problem): Record<string, unknown> {
	const out: Record<string, unknown> = { file: display, severity: p.severity, range: p.range, message: p.message };
	if (p.source !== undefined) {
		out.source = p.source;
	}
	if (p.code !== undefined) {
		out.code = p.code;
	}
	return out;
}
