// What the outside checks runner (runOutsideChecks.ts) hands each stage.
import type { CapturedRun, CaptureOptions } from '../lib/processes.js';

/** true, false, or 'known' (a failure listed in the conformance baseline: counted apart). */
export type Verdict = boolean | 'known';

/** Records one result line. */
export type RecordResult = (tool: string, name: string, ok: Verdict, detail?: string) => void;

/** Runs a command in the repository to completion (never rejects; see processes.runCaptured). */
export type RunTool = (command: string, args: readonly string[], options?: Partial<CaptureOptions>) => Promise<CapturedRun>;

export interface OutsideTools {
	node22: string;
	inspector: string;
	conformance: string;
	/** The repository. */
	root: string;
	/** Where the conformance baselines are (this folder). */
	baselineDir: string;
	tmp: string;
	run: RunTool;
	record: RecordResult;
	verbose: boolean;
	readJson(file: string): unknown;
}
