// Worker thread for the notification burst: writes (or deletes) many new files as fast as it can,
// off the bench's main event loop so client-side read latencies are not polluted by the writer.
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const { dir, count, perDir, concurrency, mode } = workerData;
const t0 = performance.now();

if (mode === 'delete') {
	await fsp.rm(dir, { recursive: true, force: true });
} else {
	const dirs = Math.ceil(count / perDir);
	await fsp.mkdir(dir, { recursive: true });
	for (let d = 0; d < dirs; d++) await fsp.mkdir(path.join(dir, `d${String(d).padStart(3, '0')}`), { recursive: true });
	let next = 0;
	const body = 'burst file\n'.repeat(40);
	await Promise.all(Array.from({ length: concurrency }, async () => {
		while (next < count) {
			const i = next++;
			const d = Math.floor(i / perDir);
			await fsp.writeFile(path.join(dir, `d${String(d).padStart(3, '0')}`, `burst-${String(i).padStart(5, '0')}.txt`), `${i}\n${body}`);
		}
	}));
}

parentPort.postMessage({ ms: performance.now() - t0 });
