import { Emitter } from '../common/event';
import { Disposable, IDisposable } from '../common/lifecycle';
import { RELEVANT_URI } from '../common/wellKnownUris';
import { ResourceNode } from './pickerNodes';
import { ResourceListing } from './resourceListing';
import { ServerConnection } from './serverConnection';

/** Suggestions shown at most. */
export const MAX_SUGGESTIONS = 10;

export interface Suggestion {
	/** The listed resource, under a key of its own so the tree can show it twice. */
	readonly node: ResourceNode;
	/** Why it is suggested, as the server put it (plain text, shown as a row's description). */
	readonly reason: string;
}

/**
 * The "Suggested" group of a server that lists `context://relevant`: its top files, each with
 * its reasons, kept current through a subscription. Only resources the listing has are shown
 * (a suggestion is never a way to show a resource the server did not list).
 */
export class Suggestions extends Disposable {
	private readonly changeEmitter = this._register(new Emitter<void>());
	readonly onDidChange = this.changeEmitter.event;
	private list: readonly Suggestion[] = [];
	private subscription: IDisposable | undefined;
	private reading: Promise<void> | undefined;
	private readAgain = false;

	constructor(private readonly connection: ServerConnection, private readonly resources: ResourceListing) {
		super();
		this._register(resources.onDidChange(() => this.follow()));
		this._register(connection.onDidUpdateResource(uri => {
			if (uri === RELEVANT_URI) {
				void this.refresh();
			}
		}));
		this._register({ dispose: () => this.subscription?.dispose() });
	}

	items(): readonly Suggestion[] {
		return this.list;
	}

	/** The reason of a suggestion row, by its node key. */
	reasonFor(key: string): string | undefined {
		return this.list.find(s => s.node.key === key)?.reason;
	}

	/** Reads the ranking again (one read at a time; a change during a read reads once more). */
	refresh(): Promise<void> {
		if (this.reading) {
			this.readAgain = true;
			return this.reading;
		}
		this.reading = (async () => {
			do {
				this.readAgain = false;
				await this.readOnce();
			} while (this.readAgain);
		})().finally(() => { this.reading = undefined; });
		return this.reading;
	}

	/** Starts following once the listing shows the resource, and stops if it goes. */
	private follow(): void {
		const listed = this.resources.resource(RELEVANT_URI) !== undefined;
		if (listed && !this.subscription) {
			this.subscription = this.connection.subscribe(RELEVANT_URI);
			void this.refresh();
		} else if (!listed && this.subscription && this.resources.state.kind === 'complete') {
			this.subscription.dispose();
			this.subscription = undefined;
			this.set([]);
		} else if (listed && this.resources.state.kind === 'complete') {
			// A new listing is in: map the ranking onto its nodes (not on every page of it).
			void this.refresh();
		}
	}

	private async readOnce(): Promise<void> {
		let parsed: unknown;
		try {
			const contents = await this.connection.read(RELEVANT_URI);
			const text = contents[0] && typeof contents[0].text === 'string' ? contents[0].text : '';
			parsed = JSON.parse(text);
		} catch {
			return; // the group keeps what it showed; the server's error shows when the resource is opened
		}
		this.set(parseSuggestions(parsed, this.resources, this.connection.id));
	}

	private set(list: readonly Suggestion[]): void {
		const key = (l: readonly Suggestion[]) => l.map(s => `${s.node.key}\n${s.reason}`).join('\n');
		if (key(list) !== key(this.list)) {
			this.list = list;
			this.changeEmitter.fire();
		}
	}
}

/** The suggestions in a `context://relevant` answer that the listing has; anything malformed is skipped. */
export function parseSuggestions(body: unknown, resources: Pick<ResourceListing, 'resource'>, serverId: string): Suggestion[] {
	const files = (body as { files?: unknown })?.files;
	if (!Array.isArray(files)) {
		return [];
	}
	const out: Suggestion[] = [];
	for (const entry of files) {
		const uri = (entry as { uri?: unknown })?.uri;
		const reasons = (entry as { reasons?: unknown })?.reasons;
		const node = typeof uri === 'string' ? resources.resource(uri) : undefined;
		if (!node || out.some(s => s.node.resource.uri === uri)) {
			continue;
		}
		const text = Array.isArray(reasons) ? reasons.filter((r): r is string => typeof r === 'string').slice(0, 3).join(', ') : '';
		out.push({ node: { ...node, key: `${serverId}|suggested|${node.resource.uri}` }, reason: text.replace(/[\r\n\t]+/g, ' ').slice(0, 200) });
		if (out.length === MAX_SUGGESTIONS) {
			break;
		}
	}
	return out;
}
