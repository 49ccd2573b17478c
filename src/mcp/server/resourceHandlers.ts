import type { Server } from '@modelcontextprotocol/server';
import { IDisposable } from '../../common/lifecycle';
import { Logger } from '../../common/logger';
import { InvalidParams } from '../../core/errors';
import { ProviderRegistry } from '../../core/registry';
import { toProtocolError } from './protocolErrors';
import { withResourceIcons, withTemplateIcons } from './icons';
import { COMPLETE_PARAMS, LIST_PARAMS, NAME_PARAMS, URI_PARAMS } from './paramSchemas';
import { checkUriLength } from './uriLimit';

/** What a 2025 connection adds to the stateless handlers: its own subscriptions and first listing. */
export interface ResourceHandlerHooks {
	/** Called with the registry's list version when the client lists its first page. */
	readonly onFirstPage?: (listVersion: number) => void;
	/**
	 * `resources/subscribe` (2025 only; on 2026-07-28 URIs arrive in `subscriptions/listen`).
	 * Unless it throws, it keeps `hold` (what the providers hold to notify `uri`) and lets go
	 * of it when the subscription ends.
	 */
	readonly subscribe?: (uri: string, hold: IDisposable) => void;
	readonly unsubscribe?: (uri: string) => void;
}

/**
 * The one definition of what this server answers, shared by both eras and every transport.
 * Params are checked against the schemas below (passed to the SDK, which answers a mismatch
 * with -32602 and a short reason; its own spec-schema check would answer -32603 with the
 * validator's dump). Handlers map domain errors so no stack trace or host path leaves.
 */
export function installResourceHandlers(server: Server, registry: ProviderRegistry, log: Logger, pageSize: number, hooks: ResourceHandlerHooks): void {
	const guard = async <R>(operation: string, work: () => Promise<R>): Promise<R> => {
		try {
			return await work();
		} catch (err) {
			throw toProtocolError(err, operation, log);
		}
	};

	server.setRequestHandler('resources/list', { params: LIST_PARAMS }, params => guard('List resources', async () => {
		const cursor = params.cursor;
		const page = await registry.list(cursor, pageSize);
		if (cursor === undefined) {
			hooks.onFirstPage?.(registry.listVersion);
		}
		// In place: the page's array is this request's own, and a listing is mostly file entries,
		// which keep no icon (`withResourceIcons` returns them as they are).
		const { resources } = page;
		for (let i = 0; i < resources.length; i++) {
			resources[i] = withResourceIcons(resources[i]);
		}
		return page.nextCursor ? { resources, nextCursor: page.nextCursor } : { resources };
	}));
	server.setRequestHandler('resources/templates/list', { params: LIST_PARAMS }, () => guard('List resource templates', async () => ({
		resourceTemplates: registry.templates().map(withTemplateIcons),
	})));
	server.setRequestHandler('resources/read', { params: URI_PARAMS }, params => guard('Read resource', async () => {
		checkUriLength(params.uri);
		return { contents: await registry.read(params.uri) };
	}));
	const { subscribe, unsubscribe } = hooks;
	if (subscribe && unsubscribe) {
		server.setRequestHandler('resources/subscribe', { params: URI_PARAMS }, params => guard('Subscribe', async () => {
			checkUriLength(params.uri);
			const hold = await registry.subscribe(params.uri);
			try {
				subscribe(params.uri, hold);
			} catch (err) {
				hold.dispose();
				throw err;
			}
			return {};
		}));
		server.setRequestHandler('resources/unsubscribe', { params: URI_PARAMS }, params => guard('Unsubscribe', async () => {
			unsubscribe(params.uri);
			return {};
		}));
	}
	server.setRequestHandler('prompts/list', { params: LIST_PARAMS }, () => ({ prompts: [] }));
	server.setRequestHandler('prompts/get', { params: NAME_PARAMS }, params => guard('Get prompt', async () => {
		throw new InvalidParams(`Unknown prompt: ${params.name}. This server offers no prompts`);
	}));
	server.setRequestHandler('completion/complete', { params: COMPLETE_PARAMS }, params => guard('Complete', async () => {
		const { ref, argument, context } = params;
		if (ref.type !== 'ref/resource') {
			throw new InvalidParams('This server offers no prompts; complete resource templates with ref/resource');
		}
		const completion = await registry.complete(ref.uri, argument.name, argument.value, context?.arguments ?? {});
		return { completion: { ...completion } };
	}));
}
