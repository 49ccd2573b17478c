import { WalkBatch, WalkDone } from '../core/files/walkBatch';

/** What the walk's worker thread (walkWorker.ts) posts to the thread that started it (ThreadWalker). */
export type WalkWorkerMessage = { kind: 'batch'; batch: WalkBatch } | { kind: 'done'; done: WalkDone } | { kind: 'failed'; message: string };

/** What the starting thread posts back, once per batch it has applied: the walk is paced by these. */
export const BATCH_APPLIED = 'applied';
