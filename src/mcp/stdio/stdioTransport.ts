import { once } from 'node:events';
import { Readable, Writable } from 'node:stream';
import { INVALID_REQUEST, PARSE_ERROR, parseJSONRPCMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/server';
import type { JSONRPCErrorResponse, JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/server';

const NEWLINE = 0x0a;

/** A line longer than the cap: the wire closes, as nothing after it can be framed. */
export class LineTooLong extends Error {}

/**
 * MCP's stdio framing (one JSON-RPC message per line) over stdin and stdout, built from the SDK's
 * own pieces: `parseJSONRPCMessage` checks each line, a partial line is capped at the SDK's
 * buffer size, and each message is written as the SDK's `serializeMessage` writes it. It takes the place of the SDK's
 * StdioServerTransport because that one drops a line it cannot parse or validate without
 * answering, while JSON-RPC asks for an error response (-32700 for bad JSON, -32600 for an
 * invalid request, with the request's id when it has a usable one). A line filter in front of the
 * SDK's transport did that before, at the price of parsing and validating every line twice.
 */
export class StdioTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
	/**
	 * Read and not yet delivered: the start of a line whose newline has not arrived yet, or,
	 * while the output drains (`holdInput`), every line read after the output filled.
	 */
	private partial: Buffer | undefined;
	/** No line is read or delivered until the output drains (see `holdInput`). */
	private inputHeld = false;
	private started = false;
	private closed = false;
	private readonly onClosed: (() => void)[] = [];
	/**
	 * Requests delivered and not answered yet. A client may write its requests and close stdin
	 * at once (`printf ... | serve --stdio`): those answers are still written before the wire
	 * closes. A listen stream is open until the end by design, so it is not waited for.
	 */
	private readonly unanswered = new Set<string | number>();
	private inputEnded = false;
	private drainTimer: NodeJS.Timeout | undefined;

	constructor(
		private readonly input: Readable,
		private readonly output: Writable,
		private readonly maxLineBytes = STDIO_DEFAULT_MAX_BUFFER_SIZE,
		/** How long answers to what was asked before stdin ended are waited for. */
		private readonly drainMs = 30_000,
	) {}

	/** Resolves once the wire has closed: stdin ended and its requests were answered, or it failed. */
	whenClosed(): Promise<void> {
		return this.closed ? Promise.resolve() : new Promise(resolve => this.onClosed.push(resolve));
	}

	async start(): Promise<void> {
		if (this.started) {
			throw new Error('StdioTransport already started');
		}
		this.started = true;
		this.input.on('data', this.onData);
		this.input.on('error', this.onInputError);
		this.input.on('end', this.onInputEnd);
		this.input.on('close', this.onInputEnd);
		this.output.on('error', this.onOutputError);
		if (this.input.readableEnded || this.input.destroyed) {
			setImmediate(this.onInputEnd);
		}
	}

	send(message: JSONRPCMessage): Promise<void> {
		if (this.closed) {
			return Promise.reject(new Error('stdio is closed'));
		}
		const written = this.write(lineOf(message));
		if (!('method' in message) && 'id' in message) {
			this.forget(message.id, written);
		}
		return written;
	}

	/** `id` needs no answer any more; the last one awaited after stdin ended closes the wire (once `written`). */
	private forget(id: string | number | undefined, written: Promise<void> = Promise.resolve()): void {
		if (id !== undefined && this.unanswered.delete(id) && this.inputEnded && this.unanswered.size === 0) {
			void written.finally(() => this.close());
		}
	}

	async close(): Promise<void> {
		if (this.closed) {
			return;
		}
		this.closed = true;
		clearTimeout(this.drainTimer);
		this.input.off('data', this.onData);
		this.input.off('error', this.onInputError);
		this.input.off('end', this.onInputEnd);
		this.input.off('close', this.onInputEnd);
		// onOutputError stays: a write failing after close is swallowed instead of crashing the process.
		if (this.input.listenerCount('data') === 0) {
			this.input.pause();
		}
		this.partial = undefined;
		this.onclose?.();
		this.onClosed.splice(0).forEach(resolve => resolve());
	}

	/** Writes a line; a full pipe is waited for, and a failed write rejects. */
	private write(line: string): Promise<void> {
		if (this.output.write(line)) {
			return Promise.resolve();
		}
		this.holdInput();
		return once(this.output, 'drain').then(() => undefined);
	}

	/**
	 * Reads no more requests until the output drains. A client that sends requests and does
	 * not read the answers (or reads them slower than they come) would otherwise have this
	 * process keep every answer it has not taken yet, large listing pages among them: held
	 * input stops that at the answers to what was already delivered. Stdin paused, the pipe
	 * fills and the client's own writes wait, as with any pipe whose reader is busy.
	 */
	private holdInput(): void {
		if (this.inputHeld) {
			return;
		}
		this.inputHeld = true;
		this.input.pause();
		this.output.once('drain', () => {
			this.inputHeld = false;
			if (this.closed) {
				return;
			}
			const held = this.partial;
			this.partial = undefined;
			if (held) {
				this.onData(held);
			}
			if (!this.inputHeld && !this.closed) {
				this.input.resume();
			}
		});
	}

	private readonly onData = (chunk: Buffer): void => {
		const buffer = this.partial ? Buffer.concat([this.partial, chunk]) : chunk;
		this.partial = undefined;
		let start = 0;
		for (let end = buffer.indexOf(NEWLINE); end !== -1 && !this.closed; end = buffer.indexOf(NEWLINE, start)) {
			if (this.inputHeld) {
				this.partial = buffer.subarray(start); // delivered once the output drains
				return;
			}
			const crlf = end > start && buffer[end - 1] === 0x0d;
			this.receiveLine(buffer.toString('utf8', start, crlf ? end - 1 : end));
			start = end + 1;
		}
		if (this.closed || start === buffer.length) {
			return;
		}
		if (buffer.length - start > this.maxLineBytes) {
			this.onerror?.(new LineTooLong(`A line exceeded the maximum size of ${this.maxLineBytes} bytes`));
			void this.close();
			return;
		}
		this.partial = buffer.subarray(start);
	};

	private receiveLine(line: string): void {
		if (line.trim() === '') {
			return;
		}
		let parsed: unknown;
		try {
			parsed = JSON.parse(line);
		} catch {
			this.reply(null, PARSE_ERROR, 'Parse error: the line is not valid JSON');
			return;
		}
		let message: JSONRPCMessage;
		try {
			message = parseJSONRPCMessage(parsed);
		} catch {
			this.answerInvalid(parsed);
			return;
		}
		if ('method' in message && 'id' in message && message.method !== 'subscriptions/listen') {
			this.unanswered.add(message.id);
		} else if ('method' in message && message.method === 'notifications/cancelled') {
			// A cancelled request gets no answer.
			this.forget((message.params as { requestId?: string | number } | undefined)?.requestId);
		}
		try {
			this.onmessage?.(message);
		} catch (err) {
			this.onerror?.(err as Error);
		}
	}

	private answerInvalid(parsed: unknown): void {
		if (Array.isArray(parsed)) {
			this.reply(null, INVALID_REQUEST, 'Invalid Request: batches are not supported; send one message per line');
			return;
		}
		if (parsed === null || typeof parsed !== 'object') {
			// `5`, `null`, `"x"`: valid JSON, no message at all (JSON-RPC's own example answers it so).
			this.reply(null, INVALID_REQUEST, 'Invalid Request: a JSON-RPC message is a JSON object');
			return;
		}
		const candidate = parsed as { id?: unknown; method?: unknown };
		if (candidate.method === undefined && !('id' in candidate)) {
			this.reply(null, INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message');
			return;
		}
		if ('id' in candidate) {
			this.reply(candidate.id, INVALID_REQUEST, 'Invalid Request: not a valid JSON-RPC 2.0 request (check jsonrpc, method and params)');
		}
		// An invalid notification gets no answer, as JSON-RPC says.
	}

	private reply(id: unknown, code: number, message: string): void {
		const usableId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
		// JSON-RPC answers with id null when the request's id cannot be read; the SDK's type has
		// undefined there instead, which JSON would drop.
		const answer = { jsonrpc: '2.0', id: usableId, error: { code, message } } as unknown as JSONRPCErrorResponse;
		this.write(lineOf(answer)).catch(err => this.onerror?.(err as Error));
	}

	private readonly onInputError = (error: Error): void => {
		this.onerror?.(error);
	};

	private readonly onInputEnd = (): void => {
		if (this.inputEnded || this.closed) {
			return;
		}
		this.inputEnded = true;
		if (this.unanswered.size === 0) {
			void this.close();
		} else {
			this.drainTimer = setTimeout(() => void this.close(), this.drainMs);
		}
	};

	private readonly onOutputError = (error: Error): void => {
		if (this.closed) {
			return;
		}
		this.onerror?.(error);
		void this.close();
	};
}

/** One message per line, as MCP's stdio transport frames them. */
function lineOf(message: JSONRPCMessage): string {
	return `${JSON.stringify(message)}\n`;
}
