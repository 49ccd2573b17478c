// Preloaded into a server the scale section starts (`node --import`, bundled by builtScript.ts so
// no TypeScript loader runs in the server): it measures the event loop's delay and, on SIGUSR2,
// writes the delay since the last signal and the time the server spent on requests as one
// `SCALE-PROBE {json}` line on stderr, then starts a new window. Works the same for any build,
// so the previous build is measured exactly like this one.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

/** What a SCALE-PROBE line holds. */
export interface ProbeLine {
	delayP99Ms: number;
	delayMaxMs: number;
	/** Summed over the requests answered since the last line: from a request's arrival to the end of its answer's write, and the writes alone. */
	requestPathMs: number;
	requestPathCpuMs: number;
	writeMs: number;
	answered: number;
}

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();

// The server's part of a client's wait: from a request's first bytes on stdin to the end of the
// write that answers it (stdout is a pipe: writes are synchronous, so a write's end is when the
// client has taken all but the last pipe buffer of it). Exact for one request at a time, as a
// client walking a listing sends them; work the server does between requests is not counted.
const cpuMs = () => {
	const { user, system } = process.cpuUsage();
	return (user + system) / 1000;
};
let arrivedAt = 0;
/** The CPU when the request arrived: unlike the times, its share does not grow when other processes hold the cores. */
let cpuAtArrival = 0;
let window = { requestPathMs: 0, requestPathCpuMs: 0, writeMs: 0, answered: 0 };
// Seen through emit, not a listener of our own: a 'data' listener would start the stream
// flowing before the server listens, and lose what arrived meanwhile.
const emit = process.stdin.emit.bind(process.stdin);
process.stdin.emit = ((event: string, ...rest: unknown[]) => {
	if (event === 'data' && arrivedAt === 0) {
		arrivedAt = performance.now();
		cpuAtArrival = cpuMs();
	}
	return emit(event, ...rest);
}) as typeof process.stdin.emit;
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = ((...args: Parameters<typeof write>) => {
	const start = performance.now();
	const written = write(...args);
	if (arrivedAt !== 0) {
		const end = performance.now();
		window.requestPathMs += end - arrivedAt;
		window.requestPathCpuMs += cpuMs() - cpuAtArrival;
		window.writeMs += end - start;
		window.answered++;
		arrivedAt = 0;
	}
	return written;
}) as typeof process.stdout.write;
process.on('SIGUSR2', () => {
	const ms = (ns: number) => Math.round(ns / 1e4) / 100;
	const line: ProbeLine = {
		delayP99Ms: ms(histogram.percentile(99)), delayMaxMs: ms(histogram.max),
		requestPathMs: Math.round(window.requestPathMs), requestPathCpuMs: Math.round(window.requestPathCpuMs), writeMs: Math.round(window.writeMs), answered: window.answered,
	};
	histogram.reset();
	window = { requestPathMs: 0, requestPathCpuMs: 0, writeMs: 0, answered: 0 };
	process.stderr.write(`SCALE-PROBE ${JSON.stringify(line)}\n`);
});
