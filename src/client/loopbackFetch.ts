import * as http from 'node:http';
import { Readable } from 'node:stream';
import type { FetchLike } from '@modelcontextprotocol/client';

/** Statuses a `Response` may not be built with a body for (the Fetch standard's null body statuses). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** Hosts a loopback request may name: our servers listen on 127.0.0.1 (lock files say so). */
function isLoopbackHost(hostname: string): boolean {
	return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * A `fetch` for the SDK's Streamable HTTP client transport that sends plain `http:` requests to a
 * loopback address through Node's `http` module, with keep-alive, and hands anything else (another
 * host, `https:`, a body that is not text or bytes) to the global `fetch`.
 *
 * Why: the bridge relays every request of its client to the window's loopback server, and
 * Node's `fetch` (undici's implementation of the Fetch standard: request and response objects, web
 * streams for every body, a dispatcher per call) costs far more CPU per request than the
 * `http` module for the same exchange, and the bridge makes that cost on every relayed request.
 * The answer is a web `Response` as `fetch` gives: buffered whole for JSON (what the SDK
 * reads whole anyway), a stream with back-pressure for `text/event-stream` (long-lived, message
 * after message). Redirects are not followed (as `redirect: 'manual'`: the SDK decides). Errors
 * are what `fetch` rejects with: a `TypeError` "fetch failed" whose `cause` is the socket's
 * error (ECONNREFUSED...), and the signal's reason when the request is aborted.
 */
export function loopbackFetch(agent = new http.Agent({ keepAlive: true })): FetchLike {
	return (input, init) => {
		const url = input instanceof URL ? input : new URL(String(input));
		const body = init?.body;
		if (url.protocol !== 'http:' || !isLoopbackHost(url.hostname) || (body != null && typeof body !== 'string' && !(body instanceof Uint8Array))) {
			return fetch(input, init);
		}
		return new Promise<Response>((resolve, reject) => {
			const signal = init?.signal ?? undefined;
			if (signal?.aborted) {
				reject(abortReason(signal));
				return;
			}
			const request = http.request({
				hostname: url.hostname.replace(/^\[|\]$/g, ''),
				port: url.port || 80,
				path: `${url.pathname}${url.search}`,
				method: init?.method ?? 'GET',
				headers: plainHeaders(init?.headers),
				agent,
			}, incoming => {
				const status = incoming.statusCode ?? 0;
				const headers = new Headers();
				for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) {
					headers.append(incoming.rawHeaders[i], incoming.rawHeaders[i + 1]);
				}
				const responseInit = { status, statusText: incoming.statusMessage ?? '', headers };
				if (NULL_BODY_STATUSES.has(status) || init?.method === 'HEAD') {
					incoming.resume();
					resolve(new Response(null, responseInit));
				} else if (/^text\/event-stream\b/i.test(incoming.headers['content-type'] ?? '')) {
					resolve(new Response(Readable.toWeb(incoming) as ReadableStream<Uint8Array>, responseInit));
				} else {
					const chunks: Buffer[] = [];
					incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
					incoming.on('end', () => resolve(new Response(Buffer.concat(chunks), responseInit)));
					incoming.on('error', err => reject(signal?.aborted ? abortReason(signal) : fetchFailed(err)));
					incoming.on('close', () => {
						if (!incoming.complete) {
							reject(signal?.aborted ? abortReason(signal) : fetchFailed(new Error('the connection closed before the answer ended')));
						}
					});
				}
			});
			request.on('error', err => reject(signal?.aborted ? abortReason(signal) : fetchFailed(err)));
			if (signal) {
				const abort = () => {
					const reason = abortReason(signal);
					request.destroy(reason instanceof Error ? reason : undefined);
				};
				signal.addEventListener('abort', abort, { once: true });
				request.on('close', () => signal.removeEventListener('abort', abort));
			}
			request.end(body ?? undefined);
		});
	};
}

/** Request headers as a plain object, from whichever form `RequestInit` allows. */
function plainHeaders(init: RequestInit['headers']): Record<string, string> {
	const headers: Record<string, string> = {};
	if (init instanceof Headers) {
		init.forEach((value, name) => {
			headers[name] = value;
		});
	} else if (Array.isArray(init)) {
		for (const [name, value] of init) {
			headers[name.toLowerCase()] = value;
		}
	} else if (init) {
		for (const [name, value] of Object.entries(init) as [string, string | readonly string[]][]) {
			headers[name.toLowerCase()] = typeof value === 'string' ? value : value.join(', ');
		}
	}
	return headers;
}

function fetchFailed(cause: Error): TypeError {
	return new TypeError('fetch failed', { cause });
}

/** What `fetch` rejects with when its signal aborts: the signal's reason, else an AbortError. */
function abortReason(signal: AbortSignal): unknown {
	return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
