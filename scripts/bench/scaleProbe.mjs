// Preloaded into a server the scale bench starts (`node --import`): measures the event loop's delay with
// perf_hooks.monitorEventLoopDelay and, on SIGUSR2, writes the delay since the last signal and the
// process's memory as one `SCALE-PROBE {json}` line on stderr, then starts a new window. Works
// the same for any build, so the previous build is measured exactly like this one.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import process from 'node:process';

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
/** The process's CPU when the request arrived: unlike the times, its share does not grow when other processes hold the cores. */
let cpuAtArrival = 0;
let requestPathMs = 0;
let requestPathCpuMs = 0;
let writeMs = 0;
let answered = 0;
// Seen through emit, not a listener of our own: a 'data' listener would start the stream
// flowing before the server listens, and lose what arrived meanwhile.
const emit = process.stdin.emit;
process.stdin.emit = function (event, ...args) {
	if (event === 'data' && arrivedAt === 0) {
		arrivedAt = performance.now();
		cpuAtArrival = cpuMs();
	}
	return emit.call(this, event, ...args);
};
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
	const start = performance.now();
	const written = write(chunk, ...rest);
	if (arrivedAt !== 0) {
		const end = performance.now();
		requestPathMs += end - arrivedAt;
		requestPathCpuMs += cpuMs() - cpuAtArrival;
		writeMs += end - start;
		answered++;
		arrivedAt = 0;
	}
	return written;
};
process.on('SIGUSR2', () => {
	const ms = ns => Math.round(ns / 1e4) / 100;
	const memory = process.memoryUsage();
	const line = {
		delayP50Ms: ms(histogram.percentile(50)), delayP99Ms: ms(histogram.percentile(99)), delayMaxMs: ms(histogram.max),
		rssMiB: Math.round(memory.rss / 2 ** 20), heapUsedMiB: Math.round(memory.heapUsed / 2 ** 20),
		requestPathMs: Math.round(requestPathMs), requestPathCpuMs: Math.round(requestPathCpuMs), writeMs: Math.round(writeMs), answered,
	};
	histogram.reset();
	requestPathMs = 0;
	requestPathCpuMs = 0;
	writeMs = 0;
	answered = 0;
	process.stderr.write(`SCALE-PROBE ${JSON.stringify(line)}\n`);
});
