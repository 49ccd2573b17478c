/** Seeded generator of hostile JSON-RPC traffic, so a failing case can be replayed. */
export function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const METHODS = [
	'resources/list', 'resources/read', 'resources/templates/list', 'resources/subscribe', 'resources/unsubscribe',
	'completion/complete', 'ping', 'initialize', 'tools/list', 'tools/call', 'prompts/list', 'logging/setLevel',
	'notifications/initialized', 'notifications/cancelled', 'unknown/method', '', 'resources/read/../x', '__proto__',
];

const URIS = [
	'file:///etc/passwd', 'file:///../../etc/passwd', 'file:///%2e%2e/%2e%2e/etc/shadow', 'file://evil/x',
	'diagnostics://workspace', 'git://repo/status', 'editor://active', 'file:///{+path}', 'http://127.0.0.1/',
	'\u0000', 'file:///tmp/\ud800', 'file:' + '/'.repeat(1000), '', '%', 'file:///ws/a?x#y',
];

export interface Generated {
	/** The body to send: a JSON string, or raw bytes for invalid UTF-8. */
	readonly body: string | Buffer;
	/** Request ids a conforming server must answer (valid requests only). */
	readonly expectIds: (string | number)[];
}

export class FuzzGenerator {
	private readonly rand: () => number;
	private usedIds: (string | number)[] = [];

	constructor(seed: number, private readonly fileUris: readonly string[] = []) {
		this.rand = prng(seed);
	}

	private int(n: number): number {
		return Math.floor(this.rand() * n);
	}

	private pick<T>(items: readonly T[]): T {
		return items[this.int(items.length)];
	}

	private string(): string {
		switch (this.int(6)) {
			case 0: return '';
			case 1: return 'x'.repeat(this.int(3) === 0 ? 200_000 : this.int(500));
			case 2: return this.pick(URIS);
			case 3: return String.fromCharCode(...Array.from({ length: this.int(40) }, () => this.int(0xffff)));
			case 4: return this.fileUris.length > 0 ? this.pick(this.fileUris) : 'file:///x';
			default: return this.pick(METHODS);
		}
	}

	value(depth = 0): unknown {
		const kind = depth > 4 ? this.int(5) : this.int(9);
		switch (kind) {
			case 0: return null;
			case 1: return this.rand() < 0.5;
			case 2: return this.pick([0, -1, 1.5, 2 ** 53, -(2 ** 63), Number.MAX_VALUE, 1e-300]);
			case 3: return this.string();
			case 4: return undefined;
			case 5: return Array.from({ length: this.int(4) }, () => this.value(depth + 1));
			case 6: return this.deep(this.int(200));
			default: {
				const obj: Record<string, unknown> = {};
				for (let i = this.int(5); i > 0; i--) {
					obj[this.pick(['uri', 'cursor', 'ref', 'argument', 'name', 'value', 'type', '_meta', '__proto__', 'constructor', this.string().slice(0, 20)])] = this.value(depth + 1);
				}
				return obj;
			}
		}
	}

	private deep(levels: number): unknown {
		let v: unknown = 'bottom';
		for (let i = 0; i < levels; i++) {
			v = this.rand() < 0.5 ? [v] : { a: v };
		}
		return v;
	}

	private params(method: string): unknown {
		if (this.rand() < 0.3) {
			return this.value();
		}
		switch (method) {
			case 'resources/read':
			case 'resources/subscribe':
			case 'resources/unsubscribe':
				return { uri: this.rand() < 0.7 ? this.string() : this.value() };
			case 'resources/list':
				return this.rand() < 0.5 ? { cursor: this.string() } : {};
			case 'completion/complete':
				return {
					ref: { type: this.pick(['ref/resource', 'ref/prompt', 'x']), uri: this.pick(['file:///{+path}', this.string()]), name: this.string() },
					argument: { name: this.pick(['path', this.string()]), value: this.string() },
				};
			case 'initialize':
				return { protocolVersion: this.pick(['2025-06-18', '1999-01-01', this.string()]), capabilities: this.value(), clientInfo: this.value() };
			default:
				return this.value();
		}
	}

	private id(): string | number | null | undefined | object {
		const r = this.rand();
		if (r < 0.1 && this.usedIds.length > 0) {
			return this.pick(this.usedIds); // duplicate id
		}
		if (r < 0.15) {
			return undefined; // a notification
		}
		if (r < 0.2) {
			return this.pick([null, {}, [], true, 1.5]);
		}
		const id = this.rand() < 0.5 ? this.int(1e9) : `id-${this.int(1e9)}`;
		this.usedIds.push(id);
		if (this.usedIds.length > 50) {
			this.usedIds = this.usedIds.slice(-50);
		}
		return id;
	}

	private message(): { message: Record<string, unknown>; valid: boolean } {
		const method = this.rand() < 0.9 ? this.pick(METHODS) : (this.value() as string);
		const id = this.id();
		const message: Record<string, unknown> = { jsonrpc: this.rand() < 0.93 ? '2.0' : this.pick(['1.0', 2, null, undefined]) };
		if (id !== undefined) {
			message.id = id;
		}
		if (this.rand() < 0.95) {
			message.method = method;
		}
		if (this.rand() < 0.85) {
			message.params = this.params(typeof method === 'string' ? method : '');
		}
		const valid = message.jsonrpc === '2.0' && (typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id))) &&
			typeof message.method === 'string' && (message.params === undefined || (typeof message.params === 'object' && message.params !== null && !Array.isArray(message.params)));
		return { message, valid };
	}

	next(): Generated {
		const r = this.rand();
		if (r < 0.03) {
			// Invalid UTF-8 inside an otherwise plausible message.
			return { body: Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}}')]), expectIds: [] };
		}
		if (r < 0.06) {
			return { body: this.pick(['', '{', '[', 'null', '1', '"x"', '{"jsonrpc":"2.0"', '}{', '\u0000']), expectIds: [] };
		}
		if (r < 0.08) {
			// Nesting deeper than any generated value, written as text (stringify would overflow).
			const levels = 1000 + this.int(50_000);
			const id = this.int(1e9);
			return {
				body: `{"jsonrpc":"2.0","id":${id},"method":"resources/read","params":{"uri":"x","deep":${'['.repeat(levels)}${']'.repeat(levels)}}}`,
				expectIds: [],
			};
		}
		if (r < 0.1) {
			const batch = Array.from({ length: 1 + this.int(4) }, () => this.message());
			return { body: JSON.stringify(batch.map(b => b.message)), expectIds: [] };
		}
		const { message, valid } = this.message();
		return { body: JSON.stringify(message), expectIds: valid ? [message.id as string | number] : [] };
	}
}

/** A JSON-RPC 2.0 response (result or error) as the spec shapes it. */
export function isValidResponse(value: unknown): boolean {
	if (!value || typeof value !== 'object') {
		return false;
	}
	const r = value as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
	if (r.jsonrpc !== '2.0' || !('id' in r)) {
		return false;
	}
	if ('result' in r) {
		return !('error' in r);
	}
	return !!r.error && Number.isInteger(r.error.code) && typeof r.error.message === 'string';
}
