// Worker thread of the notification section's burst: writes (or deletes) many new files as fast
// as it can, off the bench's event loop, so the reads timed meanwhile wait for the server only.
// Started by notify.ts with the TypeScript loader's --import, as every script here runs.
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

/** What the worker is asked to do. */
export interface BurstJob { dir: string; count: number; perDir: number; concurrency: number; mode: 'create' | 'delete' }

const { dir, count, perDir, concurrency, mode } = workerData as BurstJob;
const t0 = performance.now();
if (mode === 'delete') {
	await fsp.rm(dir, { recursive: true, force: true });
} else {
	const folder = (i: number) => path.join(dir, `d${String(Math.floor(i / perDir)).padStart(3, '0')}`);
	for (let i = 0; i < count; i += perDir) await fsp.mkdir(folder(i), { recursive: true });
	const body = 'burst file\n'.repeat(40);
	let next = 0;
	await Promise.all(Array.from({ length: concurrency }, async () => {
		for (let i = next++; i < count; i = next++) {
			await fsp.writeFile(path.join(folder(i), `burst-${String(i).padStart(5, '0')}.txt`), `${i}\n${body}`);
		}
	}));
}
parentPort?.postMessage({ ms: performance.now() - t0 });
