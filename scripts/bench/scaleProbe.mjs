// Preloaded into a server the scale bench starts (`node --import`): measures the event loop's delay with
// perf_hooks.monitorEventLoopDelay and, on SIGUSR2, writes the delay since the last signal and the
// process's memory as one `SCALE-PROBE {json}` line on stderr, then starts a new window. Works
// the same for any build, so the previous build is measured exactly like this one.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import process from 'node:process';

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
process.on('SIGUSR2', () => {
	const ms = ns => Math.round(ns / 1e4) / 100;
	const memory = process.memoryUsage();
	const line = {
		delayP50Ms: ms(histogram.percentile(50)), delayP99Ms: ms(histogram.percentile(99)), delayMaxMs: ms(histogram.max),
		rssMiB: Math.round(memory.rss / 2 ** 20), heapUsedMiB: Math.round(memory.heapUsed / 2 ** 20),
	};
	histogram.reset();
	process.stderr.write(`SCALE-PROBE ${JSON.stringify(line)}\n`);
});
