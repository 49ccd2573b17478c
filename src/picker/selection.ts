import { Emitter } from '../common/event';
import { Disposable } from '../common/lifecycle';
import { ListedResource } from './serverConnection';
import { estimateTokensFromSize } from './tokenCount';

export interface SelectedResource {
	readonly serverId: string;
	readonly resource: ListedResource;
	readonly selectedAt: number;
	/** Set when the server reported an update after the resource was selected. */
	changedAt?: number;
	/** Claude tokens of the resource's text, once it has been read and counted. */
	tokens?: number;
}

export function selectionKey(serverId: string, uri: string): string {
	return `${serverId}\n${uri}`;
}

/** The checked resources across servers, in the order they were checked. */
export class Selection extends Disposable {
	private readonly items = new Map<string, SelectedResource>();
	private readonly changeEmitter = this._register(new Emitter<void>());
	readonly onDidChange = this.changeEmitter.event;
	private readonly addedEmitter = this._register(new Emitter<SelectedResource>());
	readonly onDidAdd = this.addedEmitter.event;
	private readonly removedEmitter = this._register(new Emitter<SelectedResource>());
	readonly onDidRemove = this.removedEmitter.event;

	get size(): number {
		return this.items.size;
	}

	/**
	 * Tokens of everything selected: counted for the resources read so far, estimated from the
	 * listed size for the rest (see `tokensCounted`).
	 */
	get estimatedTokens(): number {
		let total = 0;
		for (const item of this.items.values()) {
			total += item.tokens ?? estimateTokensFromSize(item.resource.size);
		}
		return total;
	}

	/** True when every selected resource has been counted, so the total is exact. */
	get tokensCounted(): boolean {
		for (const item of this.items.values()) {
			if (item.tokens === undefined) {
				return false;
			}
		}
		return true;
	}

	/** Records the counted tokens of a selected resource; false when it is no longer selected. */
	setTokens(serverId: string, uri: string, tokens: number): boolean {
		const item = this.items.get(selectionKey(serverId, uri));
		if (!item) {
			return false;
		}
		if (item.tokens !== tokens) {
			item.tokens = tokens;
			this.changeEmitter.fire();
		}
		return true;
	}

	has(serverId: string, uri: string): boolean {
		return this.items.has(selectionKey(serverId, uri));
	}

	get(serverId: string, uri: string): SelectedResource | undefined {
		return this.items.get(selectionKey(serverId, uri));
	}

	list(): SelectedResource[] {
		return [...this.items.values()];
	}

	/** Adds and removes in one change event. */
	update(add: readonly { serverId: string; resource: ListedResource }[], remove: readonly { serverId: string; uri: string }[] = []): void {
		let changed = false;
		for (const { serverId, uri } of remove) {
			const key = selectionKey(serverId, uri);
			const item = this.items.get(key);
			if (item) {
				this.items.delete(key);
				this.removedEmitter.fire(item);
				changed = true;
			}
		}
		for (const { serverId, resource } of add) {
			const key = selectionKey(serverId, resource.uri);
			if (!this.items.has(key)) {
				const item: SelectedResource = { serverId, resource, selectedAt: Date.now() };
				this.items.set(key, item);
				this.addedEmitter.fire(item);
				changed = true;
			}
		}
		if (changed) {
			this.changeEmitter.fire();
		}
	}

	clear(): void {
		this.update([], this.list().map(i => ({ serverId: i.serverId, uri: i.resource.uri })));
	}

	/** Marks a selected resource as changed since selection; true when it is selected. */
	markChanged(serverId: string, uri: string): boolean {
		const item = this.items.get(selectionKey(serverId, uri));
		if (!item) {
			return false;
		}
		item.changedAt = Date.now();
		this.changeEmitter.fire();
		return true;
	}

	/** Forgets "changed" marks (after the selection was attached: what went out is current). */
	resetChanged(): void {
		let any = false;
		for (const item of this.items.values()) {
			if (item.changedAt !== undefined) {
				item.changedAt = undefined;
				any = true;
			}
		}
		if (any) {
			this.changeEmitter.fire();
		}
	}
}
