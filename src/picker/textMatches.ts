import { Emitter } from '../common/event';
import { Disposable } from '../common/lifecycle';
import { Logger } from '../common/logger';
import { SEARCH_TEXT_TEMPLATE } from '../common/wellKnownUris';
import { ListedResource } from './listedItems';
import { LiveAnswer, LiveRead } from './liveRead';
import { plainLine } from './markdownText';
import type { PickerService, ServerEntry } from './pickerService';

/** Quiet time after the last keystroke before the servers are asked: one query per pause, not per key. */
export const TEXT_SEARCH_DEBOUNCE_MS = 200;
/** Matched lines asked of each server: more than a QuickPick or a sidebar shows. */
export const TEXT_SEARCH_MAX = 100;
/** Shorter queries match nearly every line: names are searched, contents are not. */
export const MIN_TEXT_QUERY = 2;
/** Longest path or line text kept from an answer (the server already cuts long lines). */
const MAX_TEXT_CHARS = 400;

/** One matched line, as the picker shows it: plain text, one line, icon syntax escaped. */
export interface TextMatch {
	readonly serverId: string;
	/** Unique across servers and stable for the same line: `serverId|text|uri`. */
	readonly key: string;
	/** The line's own URI (`file:///…?lines=N`): what selecting the row selects. */
	readonly uri: string;
	/** The file the line is in. */
	readonly fileUri: string;
	/** `path:line`, for a row's label. */
	readonly label: string;
	/** The line's text, trimmed, for a row's detail. */
	readonly detail: string;
	readonly path: string;
	readonly line: number;
}

/** What the text search shows now. */
export interface TextMatchesState {
	/** The query the rows are for (undefined: none, or too short to search contents). */
	readonly query: string | undefined;
	/** A server has yet to answer `query` (or its pause has yet to end). */
	readonly searching: boolean;
	/** Servers offering the text search now: with none, there is nothing to say about text matches. */
	readonly servers: number;
	/** Matches of every server that answered, in server order, then the server's order. */
	readonly matches: readonly TextMatch[];
	readonly matchCount: number;
	readonly fileCount: number;
	/** False when a server stopped early (its `max` or time budget) or could not search. */
	readonly complete: boolean;
	/** Why it is partial, one phrase per server, as plain text. */
	readonly reasons: readonly string[];
}

export interface TextMatchesOptions {
	readonly log: Logger;
	readonly debounceMs?: number;
	readonly max?: number;
}

const IDLE: TextMatchesState = { query: undefined, searching: false, servers: 0, matches: [], matchCount: 0, fileCount: 0, complete: true, reasons: [] };

/** The `search://text` URI the picker reads for `query`. */
export function textSearchUri(query: string, max = TEXT_SEARCH_MAX): string {
	return `search://text?q=${encodeURIComponent(query)}&max=${max}`;
}

/**
 * The "Text matches" of the picker: the query, once typing pauses, read as `search://text` from
 * every server whose templates include it (a server without it contributes nothing), and kept
 * live while it is the query: each server's search URI stays subscribed, and is read again when
 * the server says its answer changed (LiveRead). An answer that brings the same lines changes
 * nothing shown. A new query aborts the requests of the previous one and releases its
 * subscriptions, and an answer for a query that is no longer the current one is dropped, so rows
 * never show what an earlier query found.
 */
export class TextMatches extends Disposable {
	private readonly changeEmitter = this._register(new Emitter<void>());
	/** The state changed: searching started, a server answered, or the query changed. */
	readonly onDidChange = this.changeEmitter.event;
	private current: TextMatchesState = IDLE;
	private wanted: string | undefined;
	private timer: ReturnType<typeof setTimeout> | undefined;
	/** The current query went out (its pause ended). */
	private sent = false;
	/** The current query's search on each server asked, and the answers in so far (by server id). */
	private readonly asked = new Map<string, LiveRead<ServerAnswer>>();
	private readonly answers = new Map<string, ServerAnswer>();
	private pending = 0;
	private readonly debounceMs: number;
	private readonly max: number;

	constructor(private readonly service: PickerService, private readonly options: TextMatchesOptions) {
		super();
		this.debounceMs = options.debounceMs ?? TEXT_SEARCH_DEBOUNCE_MS;
		this.max = options.max ?? TEXT_SEARCH_MAX;
		// A server whose templates come in after the query went out (its listing was still on its
		// first page) is asked then.
		this._register(service.onDidChange(() => {
			if (this.sent && this.askNewServers()) {
				this.publish();
			}
		}));
		this._register({ dispose: () => this.cancel() });
	}

	get state(): TextMatchesState {
		return this.current;
	}

	/** The query typed now; searched once typing pauses. Empty or short: no text matches. */
	setQuery(query: string | undefined): void {
		const q = query?.trim() ?? '';
		const next = q.length >= MIN_TEXT_QUERY ? q : undefined;
		if (next === this.wanted) {
			return;
		}
		this.cancel();
		this.wanted = next;
		if (next === undefined) {
			this.set(IDLE);
			return;
		}
		this.set({ ...IDLE, query: next, searching: true, servers: this.offering() });
		this.timer = setTimeout(() => {
			this.timer = undefined;
			this.sent = true;
			this.askNewServers();
			this.publish();
		}, this.debounceMs);
	}

	/** Whether a server offers the text search template (listed with its templates). */
	static offersTextSearch(server: ServerEntry): boolean {
		return server.resources.templates.some(t => t.uriTemplate === SEARCH_TEXT_TEMPLATE);
	}

	/** Asks the servers offering the template that were not asked for this query yet; true if any. */
	private askNewServers(): boolean {
		const query = this.wanted;
		if (query === undefined || !this.sent) {
			return false;
		}
		let any = false;
		for (const server of this.service.servers()) {
			if (this.asked.has(server.id) || !TextMatches.offersTextSearch(server)) {
				continue;
			}
			const search = new LiveRead(server.connection, textSearchUri(query, this.max), signal => this.ask(server, query, signal), this.options.log);
			this.asked.set(server.id, search);
			this.pending++;
			any = true;
			// Disposed with the query (cancel), and with it this listener: a superseded answer is never heard.
			search.onDidAnswer(answer => this.answered(server, answer));
		}
		return any;
	}

	private async ask(server: ServerEntry, query: string, signal: AbortSignal): Promise<ServerAnswer> {
		try {
			const contents = await server.connection.read(textSearchUri(query, this.max), signal);
			const text = contents[0] && typeof contents[0].text === 'string' ? contents[0].text : '';
			return parseTextAnswer(JSON.parse(text), server);
		} catch (err) {
			if (!signal.aborted) {
				this.options.log.debug(`picker: text search on ${server.label} failed: ${(err as Error).message}`);
			}
			return { matches: [], files: 0, complete: false, reason: `${server.label} could not search`, failed: true };
		}
	}

	/**
	 * A server's answer: its first is shown as it is; a later one (the files changed) only when
	 * it differs, keeping the matches it shares with the answer shown so their rows stay put. A
	 * later read that failed keeps what was shown (a reconnect reads again).
	 */
	private answered(server: ServerEntry, { answer, first }: LiveAnswer<ServerAnswer>): void {
		const shown = this.answers.get(server.id);
		if (first) {
			this.pending--;
		} else if (!shown || answer.failed || sameAnswer(shown, answer)) {
			return;
		}
		this.answers.set(server.id, shown ? keepShared(shown, answer) : answer);
		this.publish();
	}

	private publish(): void {
		const matches: TextMatch[] = [];
		let fileCount = 0;
		const reasons: string[] = [];
		for (const server of this.service.servers()) {
			const answer = this.answers.get(server.id);
			if (!answer) {
				continue;
			}
			matches.push(...answer.matches);
			fileCount += answer.files;
			if (!answer.complete) {
				reasons.push(answer.reason ?? `${server.label} stopped early`);
			}
		}
		this.set({
			query: this.wanted,
			searching: this.timer !== undefined || this.pending > 0,
			servers: this.offering(),
			matches, matchCount: matches.length, fileCount, complete: reasons.length === 0, reasons,
		});
	}

	private offering(): number {
		return this.service.servers().filter(s => TextMatches.offersTextSearch(s)).length;
	}

	private cancel(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
		this.sent = false;
		for (const search of this.asked.values()) {
			search.dispose();
		}
		this.asked.clear();
		this.answers.clear();
		this.pending = 0;
	}

	private set(state: TextMatchesState): void {
		this.current = state;
		this.changeEmitter.fire();
	}
}

interface ServerAnswer {
	readonly matches: TextMatch[];
	readonly files: number;
	readonly complete: boolean;
	readonly reason?: string;
	/** The read failed: the answer says so, and holds nothing. */
	readonly failed?: true;
}

/** Whether two answers of a server show the same: the same lines, counts and reason. */
function sameAnswer(a: ServerAnswer, b: ServerAnswer): boolean {
	return a.files === b.files && a.complete === b.complete && a.reason === b.reason && a.failed === b.failed
		&& a.matches.length === b.matches.length && a.matches.every((m, i) => sameMatch(m, b.matches[i]));
}

function sameMatch(a: TextMatch, b: TextMatch): boolean {
	return a.key === b.key && a.label === b.label && a.detail === b.detail && a.fileUri === b.fileUri && a.path === b.path && a.line === b.line;
}

/** `next`, with the matches that `shown` already has (the same in every field) taken from `shown`: a row keyed by its match object stays. */
function keepShared(shown: ServerAnswer, next: ServerAnswer): ServerAnswer {
	const byKey = new Map(shown.matches.map(m => [m.key, m]));
	const matches = next.matches.map(m => {
		const old = byKey.get(m.key);
		return old && sameMatch(old, m) ? old : m;
	});
	return { ...next, matches };
}

/**
 * The matches of a `search://text` answer, each line made plain text; anything malformed is
 * skipped. The counts are those of the lines kept, not what the server claims.
 */
export function parseTextAnswer(body: unknown, server: Pick<ServerEntry, 'id' | 'label'>): ServerAnswer {
	const files = (body as { files?: unknown })?.files;
	const complete = (body as { complete?: unknown })?.complete !== false;
	const reason = (body as { reason?: unknown })?.reason;
	const matches: TextMatch[] = [];
	let fileCount = 0;
	for (const file of Array.isArray(files) ? files : []) {
		const path = (file as { path?: unknown })?.path;
		const fileUri = (file as { uri?: unknown })?.uri;
		const lines = (file as { matches?: unknown })?.matches;
		if (typeof path !== 'string' || typeof fileUri !== 'string' || !Array.isArray(lines)) {
			continue;
		}
		const shownPath = plainLine(path, MAX_TEXT_CHARS);
		let kept = 0;
		for (const match of lines) {
			const { line, text, uri } = (match ?? {}) as { line?: unknown; text?: unknown; uri?: unknown };
			if (typeof line !== 'number' || !Number.isInteger(line) || line < 1 || typeof text !== 'string' || typeof uri !== 'string') {
				continue;
			}
			matches.push({
				serverId: server.id, key: `${server.id}|text|${uri}`, uri, fileUri, path, line,
				label: `${shownPath}:${line}`,
				detail: plainLine(text.trim(), MAX_TEXT_CHARS).trim(),
			});
			kept++;
		}
		fileCount += kept > 0 ? 1 : 0;
	}
	const why = typeof reason === 'string' && reason ? `${server.label}: ${plainLine(reason, 300)}` : undefined;
	return { matches, files: fileCount, complete, ...(complete ? {} : { reason: why ?? `${server.label} stopped early` }) };
}

/** "Searching…", "N matches in M files" (and why it is partial), or nothing without a query. */
export function textMatchesMessage(state: TextMatchesState): string | undefined {
	if (state.query === undefined || state.servers === 0) {
		return undefined;
	}
	if (state.searching && state.matches.length === 0) {
		return 'Searching…';
	}
	const counts = `${plural(state.matchCount, 'match', 'matches')} in ${plural(state.fileCount, 'file', 'files')}`;
	const more = state.searching ? ' so far, searching…' : '';
	const partial = state.complete ? '' : ` (partial: ${state.reasons.join('; ')})`;
	return `${counts}${more}${partial}`;
}

function plural(n: number, one: string, many: string): string {
	return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** What selecting a matched line adds to the selection: the line's own URI, named `path:line`. */
export function selectedLine(match: TextMatch): { serverId: string; resource: ListedResource } {
	return { serverId: match.serverId, resource: { uri: match.uri, name: `${match.path}:${match.line}` } };
}
