import type { FetchLike } from '@modelcontextprotocol/client';

/**
 * Most bytes of one message another server may send: a JSON response body, or one event of an
 * event stream. The SDK buffers a message whole before the picker sees any of it, so without this
 * an endless or enormous answer would fill the extension host's memory (shared by every extension)
 * before any of the picker's caps (items, listing bytes, read bytes) could apply. Above the
 * largest answer those caps let through: a 16 MB read, escaped or base64, or a big listing page.
 */
export const MAX_MESSAGE_BYTES = 128 * 1024 * 1024;

export class MessageTooLarge extends Error {
	constructor(readonly maxBytes: number) {
		super(`the server sent a message larger than the picker's ${Math.round(maxBytes / (1024 * 1024))} MB limit, so the picker stopped reading it`);
		this.name = 'MessageTooLarge';
	}
}

/** Statuses a `Response` may not be built with a body for. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);
const LF = 0x0a;
const CR = 0x0d;

/**
 * `fetch` whose response bodies fail with MessageTooLarge past `maxBytes`: counted over the whole
 * body, or for an event stream (long-lived, message after message) since the last blank line.
 */
export function cappedFetch(fetchImpl: FetchLike, maxBytes: number): FetchLike {
	return async (url, init) => {
		const response = await fetchImpl(url, init);
		if (!response.body || NULL_BODY_STATUSES.has(response.status)) {
			return response;
		}
		const events = /^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '');
		let count = 0;
		let lineBytes = 0;
		const capped = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
			transform(chunk, controller) {
				if (!events) {
					count += chunk.byteLength;
				} else {
					for (const byte of chunk) {
						if (byte === LF) {
							// An empty line (only a CR, if any) ends an event.
							count = lineBytes === 0 ? 0 : count + 1;
							lineBytes = 0;
						} else if (byte !== CR) {
							lineBytes++;
							count++;
						}
					}
				}
				if (count > maxBytes) {
					controller.error(new MessageTooLarge(maxBytes));
					return;
				}
				controller.enqueue(chunk);
			},
		}));
		return new Response(capped, { status: response.status, statusText: response.statusText, headers: response.headers });
	};
}
