// Event-loop delay inside a running Node process we cannot preload into (VS Code's extension
// host: its environment is stripped of NODE_OPTIONS). SIGUSR1 opens the process's inspector, as
// `node --inspect` would; its port is the listening socket that appeared in the process
// (/proc/<pid>/fd against /proc/net/tcp); over the DevTools protocol (Runtime.evaluate) a
// perf_hooks.monitorEventLoopDelay histogram is started in the process and read on demand.
// Needs a global WebSocket (Node 22+, or Node 20 with --experimental-websocket).
import * as fs from 'node:fs';
import { now, sleep } from './measurement.js';

/** Ports of the TCP sockets `pid` listens on. */
function listeningPorts(pid: number): Set<number> {
	const inodes = new Set<string>();
	for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
		try {
			const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
			if (m) inodes.add(m[1]);
		} catch { /* closed meanwhile */ }
	}
	const ports = new Set<number>();
	for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
		let text = '';
		try { text = fs.readFileSync(table, 'utf8'); } catch { continue; }
		for (const line of text.split('\n').slice(1)) {
			const cols = line.trim().split(/\s+/);
			// local_address is HEX_IP:HEX_PORT, st 0A is LISTEN, the inode is column 10.
			if (cols.length > 9 && cols[3] === '0A' && inodes.has(cols[9])) ports.add(parseInt(cols[1].split(':')[1], 16));
		}
	}
	return ports;
}

/** The spike log's timer period, and the lateness it records (ms). */
const TICK_MS = 5;
const SPIKE_MS = 20;

const DELAY_SETUP = `(() => {
	const { monitorEventLoopDelay } = process.getBuiltinModule('node:perf_hooks');
	globalThis.__mcpwrBenchDelay?.disable();
	const h = monitorEventLoopDelay({ resolution: 5 });
	h.enable();
	globalThis.__mcpwrBenchDelay = h;
	// Each hold over SPIKE_MS, with when it ended (the clock of the CPU profile), so a profile can
	// name whose code held the loop then: the histogram alone says how long, never when.
	clearTimeout(globalThis.__mcpwrBenchSpikes?.timer);
	const spikes = globalThis.__mcpwrBenchSpikes = { list: [], timer: undefined };
	let last = process.hrtime.bigint();
	const tick = () => {
		const t = process.hrtime.bigint();
		const lateMs = Number(t - last) / 1e6 - ${TICK_MS};
		if (lateMs > ${SPIKE_MS} && spikes.list.length < 10000) spikes.list.push([Number(t / 1000n), Math.round(lateMs * 10) / 10]);
		last = t;
		spikes.timer = setTimeout(tick, ${TICK_MS});
		spikes.timer.unref?.();
	};
	tick();
	return process.pid;
})()`;

const SPIKES_READ = `(() => { const s = globalThis.__mcpwrBenchSpikes; const list = s?.list ?? []; if (s) s.list = []; return list; })()`;

const DELAY_READ = `(() => {
	const h = globalThis.__mcpwrBenchDelay;
	const ms = ns => Math.round(ns / 1e4) / 100;
	const out = { p50Ms: ms(h.percentile(50)), p99Ms: ms(h.percentile(99)), maxMs: ms(h.max), samples: h.count };
	h.reset();
	return out;
})()`;

/** A hold of the event loop: when it ended (the host's clock in µs, its CPU profile's time base) and how long a timer waited (ms). */
export type DelaySpike = [endUs: number, ms: number];

/** Event-loop delay since the last read (or the start), in ms. */
export interface LoopDelay { p50Ms: number; p99Ms: number; maxMs: number; samples: number }

export interface HostInspector {
	port: number;
	startDelayMonitor(): Promise<void>;
	/** The event-loop delay since the last call or the start. */
	delay(): Promise<LoopDelay>;
	/** The holds over 20 ms since the last call or the start. */
	spikes(): Promise<DelaySpike[]>;
	/** Starts the V8 CPU profiler in the process (sampling every `intervalUs`). */
	startProfile(intervalUs?: number): Promise<void>;
	/** Stops the CPU profiler: the profile, as the DevTools protocol gives it (a .cpuprofile). */
	stopProfile(): Promise<unknown>;
	/** The process's monotonic clock in µs: the time base of its CPU profile's samples. */
	clockUs(): Promise<number>;
	close(): Promise<void>;
}

/** One DevTools protocol reply. */
interface InspectorReply {
	id?: number;
	error?: { message: string };
	result: { exceptionDetails?: { text: string; exception?: { description?: string } }; result?: { value: unknown }; profile?: unknown };
}

/**
 * Whether `pid` catches SIGUSR1 yet (/proc/<pid>/status SigCgt, bit 10 on Linux). Node installs
 * the handler that opens the inspector while it starts; before that, SIGUSR1's default action
 * ends the process (which showed as "scandir /proc/<pid>/fd: ENOENT" in runs under load).
 */
function catchesSigusr1(pid: number): boolean {
	const m = /^SigCgt:\s+([0-9a-f]+)$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
	return m !== null && (BigInt(`0x${m[1]}`) & (1n << 9n)) !== 0n;
}

/** The debugger URL an inspector on `port` lists, if the port is an inspector's and lists one yet. */
async function debuggerUrl(port: number): Promise<{ port: number; url: string } | undefined> {
	try {
		const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json() as { webSocketDebuggerUrl?: string }[];
		const url = Array.isArray(targets) ? targets[0]?.webSocketDebuggerUrl : undefined;
		return url === undefined ? undefined : { port, url };
	} catch {
		return undefined;
	}
}

/** Opens the inspector of `pid` and connects to it. */
export async function connectInspector(pid: number, timeoutMs = 15_000): Promise<HostInspector> {
	if (typeof WebSocket !== 'function') throw new Error('no global WebSocket: run with Node 22+ or node --experimental-websocket');
	const deadline = now() + timeoutMs;
	while (!catchesSigusr1(pid)) {
		if (now() > deadline) throw new Error(`process ${pid} did not catch SIGUSR1 within ${timeoutMs / 1000} s`);
		await sleep(10);
	}
	const before = listeningPorts(pid);
	process.kill(pid, 'SIGUSR1');
	// Any port the process opened since is a candidate: the extension's own MCP server can start
	// listening in the same moment as the inspector (seen in the first window of a run, whose
	// inspector then "listed no target"). The inspector is the one that lists a debugger target.
	let found: { port: number; url: string } | undefined;
	for (;;) {
		for (const candidate of [...listeningPorts(pid)].filter(p => !before.has(p))) {
			found ??= await debuggerUrl(candidate);
		}
		if (found !== undefined) break;
		if (now() > deadline) throw new Error(`process ${pid} opened no inspector port that lists a target within ${timeoutMs / 1000} s of SIGUSR1`);
		await sleep(20);
	}
	const { port, url } = found;
	const ws = new WebSocket(url);
	await new Promise<void>((resolve, reject) => {
		ws.addEventListener('open', () => resolve(), { once: true });
		ws.addEventListener('error', () => reject(new Error(`cannot connect to ${url}`)), { once: true });
	});
	let nextId = 1;
	const pending = new Map<number, { resolve(value: InspectorReply['result']): void; reject(err: Error): void }>();
	ws.addEventListener('message', event => {
		const msg = JSON.parse(String(event.data)) as InspectorReply;
		const waiter = msg.id !== undefined ? pending.get(msg.id) : undefined;
		if (!waiter || msg.id === undefined) return;
		pending.delete(msg.id);
		if (msg.error) waiter.reject(new Error(msg.error.message));
		else if (msg.result.exceptionDetails) waiter.reject(new Error(msg.result.exceptionDetails.exception?.description ?? msg.result.exceptionDetails.text));
		else waiter.resolve(msg.result);
	});
	const send = (method: string, params: object = {}) => new Promise<InspectorReply['result']>((resolve, reject) => {
		const id = nextId++;
		pending.set(id, { resolve, reject });
		ws.send(JSON.stringify({ id, method, params }));
	});
	const evaluate = async <T>(expression: string) => (await send('Runtime.evaluate', { expression, returnByValue: true })).result?.value as T;
	const openPort = port;
	return {
		port: openPort,
		async startDelayMonitor() {
			const seen = await evaluate<number>(DELAY_SETUP);
			if (seen !== pid) throw new Error(`the inspector on port ${openPort} belongs to process ${seen}, not ${pid}`);
		},
		delay: () => evaluate<LoopDelay>(DELAY_READ),
		spikes: () => evaluate<DelaySpike[]>(SPIKES_READ),
		async startProfile(intervalUs = 500) {
			await send('Profiler.enable');
			await send('Profiler.setSamplingInterval', { interval: intervalUs });
			await send('Profiler.start');
		},
		clockUs: () => evaluate<number>('Number(process.hrtime.bigint() / 1000n)'),
		stopProfile: async () => (await send('Profiler.stop')).profile,
		async close() {
			await evaluate('globalThis.__mcpwrBenchDelay?.disable(), delete globalThis.__mcpwrBenchDelay, clearTimeout(globalThis.__mcpwrBenchSpikes?.timer), delete globalThis.__mcpwrBenchSpikes').catch(() => undefined);
			ws.close();
		},
	};
}
