// What one cold window of the host-scale bench (hostScale.ts) records.
import type { HostInspector, LoopDelay } from './hostInspector.js';
import type { HostSwitch, HostSwitchControl } from './hostScaleSwitch.js';
import type { LatencySummary } from './measurement.js';
import type { ScaleNotifyLatency } from './notify.js';

/** The extension host's JS heap, as the inspector reads it. */
export type Memory = Awaited<ReturnType<HostInspector['memory']>>;

/** One cold window (hostScale.ts's header says what each is). */
export interface HostRun extends Partial<ScaleNotifyLatency> {
	lockBeforeMonitor?: boolean;
	indexedBeforeLock?: boolean;
	rssAtLockMiB?: number | null;
	indexingWindowMs?: number;
	heapAfterIndex?: Memory | null;
	indexMs?: number;
	indexedFiles?: number;
	rssAfterIndexMiB?: number | null;
	peakRssAfterIndexMiB?: number | null;
	indexingDelay?: LoopDelay | null;
	pingWhileIndexing?: LatencySummary | null;
	idleDelay?: LoopDelay | null;
	firstPageP50Ms?: number | null;
	fullListingMs?: number;
	listingDelay?: LoopDelay | null;
	listedFiles?: number;
	pages?: number;
	problem?: string;
	rssAfterListingMiB?: number | null;
	heapAfterListing?: Memory | null;
	peakRssMiB?: number | null;
	error?: string;
	loadAvg?: number[];
	/** CPU time of the extension host's main thread (its event loop) while indexing and while listing. */
	mainThreadCpuIndexingMs?: number | null;
	mainThreadCpuListingMs?: number | null;
	/** The host's clock (µs, its CPU profile's time base) when each phase began. */
	phasesUs?: Record<string, number | null>;
	/** BENCH_HOST_SWITCH=1: each checkout, and the window of the same length without one. */
	switches?: HostSwitch[];
	switchControl?: HostSwitchControl;
}
