import { Emitter } from '../../src/common/event';
import { IDisposable, nothingToDispose } from '../../src/common/lifecycle';
import { ResourceChange, ResourceContent, ResourceProvider } from '../../src/core/resource';

/**
 * A provider of nothing but `scheme:` URIs, for tests of the transport around the registry: it
 * lists nothing, reads each URI as `text`, accepts any subscription, offers no templates, and
 * fires what `changed` is told. Tests override what they exercise (a gated read, ...).
 */
export class SchemeProvider implements ResourceProvider {
	protected readonly emitter = new Emitter<ResourceChange>();
	readonly onDidChange = this.emitter.event;

	constructor(readonly id: string, readonly summary: string, private readonly text: string) {}

	/** Tells the registry these URIs changed. */
	changed(uris: readonly string[]): void {
		this.emitter.fire({ updated: uris, listChanged: false });
	}
	async ready(): Promise<void> {}
	list(): [] {
		return [];
	}
	handles(uri: string): boolean {
		return uri.startsWith(`${this.id}:`);
	}
	async read(uri: string): Promise<ResourceContent[]> {
		return [{ uri, text: this.text }];
	}
	async subscribe(): Promise<IDisposable> {
		return nothingToDispose;
	}
	templates(): [] {
		return [];
	}
	async complete(): Promise<undefined> {
		return undefined;
	}
	dispose(): void {
		this.emitter.dispose();
	}
}
