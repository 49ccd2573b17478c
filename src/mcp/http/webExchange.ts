import type * as http from 'node:http';

/**
 * The web `Request` the SDK's web-standard transports and classifier take, without a body: they
 * are always given the body already parsed (`parsedBody`), so serialising it again into the
 * request would be work nobody reads. `signal` aborts when the client goes away.
 */
export function webRequestOf(req: http.IncomingMessage, signal?: AbortSignal): Request {
	const headers = new Headers();
	for (const [name, value] of Object.entries(req.headers)) {
		if (Array.isArray(value)) {
			for (const item of value) {
				headers.append(name, item);
			}
		} else if (value !== undefined) {
			headers.set(name, value);
		}
	}
	headers.delete('content-length');
	// The front has checked Host (it names this server) before any request gets here.
	return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, { method: req.method, headers, signal });
}

/**
 * A signal that aborts when the client goes away before its answer was sent in full (not after:
 * a finished response closing is no news). Call it before the first `await` on a request, or a
 * client gone meanwhile would never abort it.
 */
export function abortedWhenClientGoes(res: http.ServerResponse): AbortSignal {
	const abort = new AbortController();
	if (res.destroyed) {
		abort.abort();
	}
	res.once('close', () => {
		if (!res.writableFinished) {
			abort.abort();
		}
	});
	return abort.signal;
}

/**
 * Bytes of a stream's events a client may leave unread before the stream is cut. A notification
 * stream lives for as long as the client likes and Node keeps every write the socket could not
 * take yet: a client that holds its stream open and stops reading would otherwise make this
 * process keep each `resources/updated` sent to it, for ever. A client that reads, however
 * slowly, never nears it (a burst of 10,000 notifications of 8 KB URIs is 80 MB, of typical
 * URIs about 2 MB); a single event (an answer) is always written whole, however large.
 */
export const MAX_UNREAD_STREAM_BYTES = 4 * 1024 * 1024;

/** What `writeResponse` reports when it cut a stream its client stopped reading. */
export type OnStreamCut = (unreadBytes: number) => void;

/** The log line for a stream cut by `writeResponse`: what it was, and how much was left unread. */
export function streamCutMessage(what: string, unreadBytes: number): string {
	return `closed ${what}: its client left ${(unreadBytes / (1024 * 1024)).toFixed(1)} MB unread (over the ${MAX_UNREAD_STREAM_BYTES / (1024 * 1024)} MB limit); it may open it again`;
}

/**
 * Writes a web `Response` (a JSON body, an SSE stream, or none) to Node's response, stopping when
 * the client goes. `opensAtOnce`: a stream that may stay quiet for long (a 2025 GET stream) sends
 * its headers at once, or the client would not know it is open; any other stream's headers go
 * out with its first event (a POST's answer, a listen acknowledgement), one socket write fewer.
 * A stream whose client leaves more than `maxUnread` bytes unread is cut (`onCut` is told): the
 * client sees its stream end and may open it again; its session and subscriptions stay.
 */
export async function writeResponse(response: Response, res: http.ServerResponse, opensAtOnce = false,
	onCut?: OnStreamCut, maxUnread = MAX_UNREAD_STREAM_BYTES): Promise<void> {
	const headers: Record<string, string> = {};
	response.headers.forEach((value, name) => { headers[name] = value; });
	if (!response.body || !(headers['content-type'] ?? '').startsWith('text/event-stream')) {
		// A whole body (JSON, or none) goes out in one write with its length: streaming it
		// chunked costs a system call per piece on every request.
		const body = await response.text(); // cheaper than arrayBuffer() on undici's Response
		headers['content-length'] = String(Buffer.byteLength(body));
		res.writeHead(response.status, headers);
		res.end(body);
		return;
	}
	res.writeHead(response.status, headers);
	// Not corked to put headers and the first event in one write: on Node 22 and later (VS Code's
	// extension host) ending a corked response garbled the next one on the kept-alive connection.
	if (opensAtOnce) {
		res.flushHeaders();
	}
	const reader = response.body.getReader();
	// Cancelling the stream is how the SDK learns the client left (it ends the SSE stream and
	// forgets it, so a 2025 session may open its GET stream again). A client gone before this
	// point (while the SDK prepared the answer) closed the response already: no 'close' will come,
	// and a quiet GET stream would otherwise stay the session's one stream, refusing the next (409).
	const stop = () => void reader.cancel().catch(() => undefined);
	if (res.destroyed) {
		stop();
	}
	res.once('close', stop);
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) {
				break;
			}
			if (res.destroyed) {
				stop();
				break;
			}
			// Counted before the write, so one event is never refused for its own size.
			const unread = res.writableLength;
			if (unread > maxUnread) {
				stop();
				res.destroy(); // lets go of what was written and not taken
				onCut?.(unread);
				break;
			}
			res.write(value); // Node holds the writes of one tick together itself
		}
	} catch {
		// The stream ended early (client gone, handler closed): nothing more to send.
	} finally {
		res.off('close', stop);
		res.end();
	}
}
