// A headless server over stdio with scaleProbe.mjs preloaded, for the scale benches (scale.ts,
// scaleSwitch.ts): its stderr hands over the probe's lines and the host's "indexed N files" line
// as they come, and probe() reads the event-loop delay since the last call.
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { OursStdio } from './contenders.js';
import { now, sleep, TailBuffer } from './measurement.js';
import { repoRoot } from '../bootstrap/repoRoot.mjs';

const PROBE = pathToFileURL(path.join(repoRoot, 'scripts', 'bench', 'scaleProbe.mjs')).href;

/** What the probe (scaleProbe.mjs) reports on SIGUSR2. */
export interface ProbeLine {
	delayP99Ms: number;
	delayMaxMs: number;
	/** Summed over the requests answered since the last probe: from a request's arrival to the end of its answer's write, and the writes alone. */
	requestPathMs?: number;
	requestPathCpuMs?: number;
	writeMs?: number;
	answered?: number;
}

/** stderr of a server: keeps the tail, and hands over probe lines and the index line as they come. */
export class ScaleStderr extends TailBuffer {
	private partial = '';
	readonly probes: ProbeLine[] = [];
	private readonly waiters: (() => void)[] = [];
	indexed: { files: number; ms: number; at: number } | null = null;
	override push(chunk: string): void {
		super.push(chunk);
		this.partial += chunk;
		let nl;
		while ((nl = this.partial.indexOf('\n')) >= 0) {
			const line = this.partial.slice(0, nl);
			this.partial = this.partial.slice(nl + 1);
			const probe = /^SCALE-PROBE (.*)$/.exec(line);
			if (probe) this.probes.push(JSON.parse(probe[1]) as ProbeLine);
			const indexed = /indexed (\d+) files in (\d+) ms/.exec(line);
			if (indexed && !this.indexed) this.indexed = { files: Number(indexed[1]), ms: Number(indexed[2]), at: now() };
			for (const w of this.waiters.splice(0)) w();
		}
	}
	changed(): Promise<void> {
		return new Promise(resolve => this.waiters.push(resolve));
	}
}

export class ProbedServer extends OursStdio {
	override stderr = new ScaleStderr();

	override nodeArgs(): string[] {
		return ['--import', PROBE, ...super.nodeArgs()];
	}

	/** The probe's event-loop delay since the last call (and memory now). */
	async probe(): Promise<ProbeLine> {
		const before = this.stderr.probes.length;
		if (this.pid === undefined) throw new Error('the server is not running');
		process.kill(this.pid, 'SIGUSR2');
		const deadline = now() + 30_000;
		while (this.stderr.probes.length === before) {
			if (now() > deadline) throw new Error('the probe did not answer SIGUSR2 within 30 s');
			await Promise.race([this.stderr.changed(), sleep(50)]);
		}
		return this.stderr.probes[before];
	}
}
