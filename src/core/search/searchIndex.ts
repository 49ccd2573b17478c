import { Buffer } from 'node:buffer';
import * as path from 'node:path';
import { EventLoopSlices } from '../files/eventLoopSlices';
import { FileSystemReader } from '../ports';
import { batchFiles, DirtyText, FileBatch, FileSigners, IndexProgress, IndexSetup, SignedFile } from './ports';
import { textSignature } from './textSignature';

/** A file's text not looked at yet (new, or changed since). */
const PENDING = 0;
/** Its signature is current. */
const INDEXED = 1;
/** Nothing to search in it: binary, over the size cap, or no longer readable as served. */
const SKIPPED = 2;

/** Files handed to the other threads at a time: one message each way per batch, not per file. */
const SIGN_BATCH = 256;

/**
 * A file as a cache keeps it between processes (src/node/searchCacheCodec.ts): what tells it
 * changed (size and time), and its state (1 indexed, 2 skipped) with its signature. No text.
 */
export interface CachedFile {
	readonly display: string;
	readonly size: number;
	readonly mtimeMs: number;
	readonly state: number;
	readonly signature: Int32Array | undefined;
}

/** One file the index holds. Slots of removed files are used again. */
interface Slot {
	display: string;
	/** The folder it is in (index of `IndexSetup.roots`). */
	folder: number;
	size: number;
	mtimeMs: number;
	state: number;
	signature: Int32Array | undefined;
	/** Counts changes, so a read that a change overtook does not store what it read. */
	generation: number;
}

/**
 * The text index of the served files: a 4-gram signature per file (`quadgrams.ts`), built in the
 * background a slice at a time and kept current from the files provider's changes and the open
 * documents' unsaved text. It holds no text: a query reads the files its signatures cannot rule
 * out, so memory grows with an eighth of the text, not with the text.
 */
export class SearchIndex {
	private setup: IndexSetup = { roots: [], maxFileSize: 0 };
	private readonly slots: (Slot | undefined)[] = [];
	private readonly free: number[] = [];
	private readonly byDisplay = new Map<string, number>();
	/** Unsaved text by display path: kept through a reset for the files that stay. */
	private readonly dirty = new Map<string, string>();
	private queue: number[] = [];
	private queueHead = 0;
	private ordered: number[] | undefined;
	private pumping = false;
	private disposed = false;
	private counts = { indexed: 0, textBytes: 0, indexBytes: 0 };
	private readonly slices: EventLoopSlices;
	private readonly idleWaiters: (() => void)[] = [];
	/** Files a cache holds, offered to the next reset (then dropped). */
	private seeded: Map<string, CachedFile> | undefined;
	private reusedCount = 0;
	/** Batches the other threads are reading and signing. */
	private readonly signing = new Set<Promise<void>>();
	/** Wakes the background work waiting on those batches: a change came to index meanwhile. */
	private wakeDrain: (() => void) | undefined;

	/** `signers`: other threads to read and sign files beside this one, when there are cores for them. */
	constructor(private readonly reader: FileSystemReader, slices = new EventLoopSlices(), private readonly signers?: FileSigners) {
		this.slices = slices;
	}

	/**
	 * Files a cache kept from an earlier process, for the next reset: a listed file with the same
	 * display path, size and time takes its state and signature instead of being read.
	 */
	seed(files: Map<string, CachedFile>): void {
		this.seeded = files;
	}

	/** Files the last reset took from the seed (not read again). */
	get reused(): number {
		return this.reusedCount;
	}

	/** The files to hold from now on; those that stayed (same size and time) keep their signature. */
	reset(setup: IndexSetup, files: FileBatch): void {
		this.setup = setup;
		const keep = new Map<string, Pick<Slot, 'size' | 'mtimeMs' | 'state' | 'signature'>>(this.seeded);
		const seeded = this.seeded;
		this.seeded = undefined;
		this.reusedCount = 0;
		for (const slot of this.slots) {
			if (slot && slot.state !== PENDING) {
				keep.set(slot.display, slot);
			}
		}
		this.slots.length = 0;
		this.free.length = 0;
		this.byDisplay.clear();
		this.queue = [];
		this.queueHead = 0;
		this.ordered = undefined;
		this.counts = { indexed: 0, textBytes: 0, indexBytes: 0 };
		for (const file of batchFiles(files)) {
			const old = keep.get(file.display);
			const slot = this.add(file.path, file.display, file.size, file.mtimeMs);
			if (old && old.size === file.size && old.mtimeMs === file.mtimeMs) {
				const current = this.slots[slot]!;
				current.state = old.state;
				current.signature = old.signature;
				this.counted(current, 1);
				if (seeded?.get(file.display) === old) {
					this.reusedCount++;
				}
			}
		}
		for (const display of [...this.dirty.keys()]) {
			const slot = this.byDisplay.get(display);
			if (slot === undefined) {
				this.dirty.delete(display);
			} else if (this.slots[slot]!.state !== PENDING) {
				this.invalidate(slot); // what it kept was the unsaved text's signature, or the disk's
			}
		}
		this.requeueAll();
	}

	/** Files written or made, files gone, and unsaved text (which wins over the disk while it lasts). */
	update(changed: FileBatch, removed: readonly string[], dirty: readonly DirtyText[]): void {
		for (const file of batchFiles(changed)) {
			const slot = this.byDisplay.get(file.display);
			if (slot === undefined) {
				this.enqueue(this.add(file.path, file.display, file.size, file.mtimeMs));
				continue;
			}
			const entry = this.slots[slot]!;
			entry.size = file.size;
			entry.mtimeMs = file.mtimeMs;
			this.invalidate(slot);
		}
		for (const absPath of removed) {
			const slot = this.slotOf(absPath);
			if (slot !== undefined) {
				this.remove(slot);
			}
		}
		for (const { path: absPath, text } of dirty) {
			const slot = this.slotOf(absPath);
			if (slot === undefined) {
				continue; // not a served file: its text is nobody's business
			}
			const display = this.slots[slot]!.display;
			if (text === undefined) {
				this.dirty.delete(display);
			} else {
				this.dirty.set(display, text);
			}
			this.invalidate(slot);
		}
		this.pump();
	}

	/** The slot of a file by its absolute path (as listed, or its real path), if held. */
	slotOf(absPath: string): number | undefined {
		const display = this.displayOf(absPath);
		return display === undefined ? undefined : this.byDisplay.get(display);
	}

	slotOfDisplay(display: string): number | undefined {
		return this.byDisplay.get(display);
	}

	display(slot: number): string {
		return this.slots[slot]!.display;
	}

	/** Whether the slot still holds a file (a removed one's slot may be empty, or reused). */
	has(slot: number): boolean {
		return this.slots[slot] !== undefined;
	}

	absPath(slot: number): string {
		const entry = this.slots[slot]!;
		const root = this.setup.roots[entry.folder];
		return path.join(root.path, ...this.relOf(entry).split('/'));
	}

	/** The signature when the file is indexed; undefined while it is pending; null when there is nothing to search. */
	signatureOf(slot: number): Int32Array | undefined | null {
		const entry = this.slots[slot]!;
		return entry.state === SKIPPED ? null : entry.state === INDEXED ? entry.signature : undefined;
	}

	/** Every file in the order answers list them: by display path (code units). */
	order(): readonly number[] {
		if (!this.ordered) {
			const live: number[] = [];
			for (let i = 0; i < this.slots.length; i++) {
				if (this.slots[i]) {
					live.push(i);
				}
			}
			const displays = this.slots;
			live.sort((a, b) => (displays[a]!.display < displays[b]!.display ? -1 : 1));
			this.ordered = live;
		}
		return this.ordered;
	}

	/**
	 * The text to search for a file now: its unsaved text, else what the disk holds (read as the
	 * files provider reads, refusing what leads outside the held files). Undefined for a binary,
	 * a file over the cap, one that is gone, or one whose bytes `mayMatch` rules out. A pending
	 * file read here is indexed on the way.
	 */
	async textOf(slot: number, mayMatch: (bytes: Buffer) => boolean = () => true): Promise<string | undefined> {
		const entry = this.slots[slot];
		if (!entry || entry.state === SKIPPED) {
			return undefined;
		}
		const dirty = this.dirty.get(entry.display);
		if (dirty !== undefined) {
			if (entry.state === PENDING) {
				this.indexBytes(entry, Buffer.from(dirty, 'utf8'));
			}
			return entry.state === SKIPPED ? undefined : dirty;
		}
		const bytes = await this.read(slot, entry);
		if (bytes === undefined || !this.has(slot) || this.slots[slot] !== entry) {
			return undefined;
		}
		if (entry.state === PENDING) {
			this.indexBytes(entry, bytes);
		}
		// Decoded only when the bytes may match: most files a signature lets through do not.
		return entry.state === SKIPPED || !mayMatch(bytes) ? undefined : bytes.toString('utf8');
	}

	/**
	 * The files whose state is current on disk, for a cache: not the pending ones, and not those
	 * with unsaved text, whose signature may be that text's (never kept beyond this process).
	 */
	snapshot(): CachedFile[] {
		const files: CachedFile[] = [];
		for (const slot of this.slots) {
			if (slot && slot.state !== PENDING && !this.dirty.has(slot.display)) {
				files.push({ display: slot.display, size: slot.size, mtimeMs: slot.mtimeMs, state: slot.state, signature: slot.signature });
			}
		}
		return files;
	}

	/** The folders and the read cap the index is built for now. */
	currentSetup(): IndexSetup {
		return this.setup;
	}

	progress(): IndexProgress {
		let total = 0;
		for (const slot of this.slots) {
			if (slot) {
				total++;
			}
		}
		return { indexed: this.counts.indexed, total, textBytes: this.counts.textBytes, indexBytes: this.counts.indexBytes };
	}

	/** Resolves once every file is indexed (now, or when the background work gets there). */
	whenIdle(): Promise<void> {
		if (!this.pumping && this.queueHead >= this.queue.length) {
			return Promise.resolve();
		}
		return new Promise(resolve => this.idleWaiters.push(resolve));
	}

	/** Undefined while the current slice of work lasts, else a promise of a later turn. */
	pause(): Promise<void> | undefined {
		return this.slices.pause();
	}

	dispose(): void {
		this.disposed = true;
		this.idleWaiters.splice(0).forEach(resolve => resolve());
	}

	private add(absPath: string, display: string, size: number, mtimeMs: number): number {
		const slot = this.free.pop() ?? this.slots.length;
		this.slots[slot] = { display, folder: this.folderOf(absPath), size, mtimeMs, state: PENDING, signature: undefined, generation: 0 };
		this.byDisplay.set(display, slot);
		this.ordered = undefined;
		return slot;
	}

	private remove(slot: number): void {
		const entry = this.slots[slot]!;
		this.counted(entry, -1);
		this.slots[slot] = undefined;
		this.byDisplay.delete(entry.display);
		this.dirty.delete(entry.display);
		this.free.push(slot);
		this.ordered = undefined;
	}

	/** The file changed: looked at again (now by a query, or by the background work). */
	private invalidate(slot: number): void {
		const entry = this.slots[slot]!;
		this.counted(entry, -1);
		entry.state = PENDING;
		entry.signature = undefined;
		entry.generation++;
		this.enqueue(slot);
	}

	private counted(entry: Slot, sign: 1 | -1): void {
		if (entry.state === PENDING) {
			return;
		}
		this.counts.indexed += sign;
		if (entry.signature) {
			this.counts.textBytes += sign * entry.size;
			this.counts.indexBytes += sign * entry.signature.byteLength;
		}
	}

	private requeueAll(): void {
		for (let i = 0; i < this.slots.length; i++) {
			if (this.slots[i]?.state === PENDING) {
				this.queue.push(i);
			}
		}
		this.pump();
	}

	private enqueue(slot: number): void {
		this.queue.push(slot);
		this.wakeDrain?.();
		this.pump();
	}

	/** Indexes pending files a slice at a time until none is left. */
	private pump(): void {
		if (this.pumping || this.disposed) {
			return;
		}
		this.pumping = true;
		void this.drain().finally(() => {
			this.pumping = false;
			if (this.queueHead < this.queue.length && !this.disposed) {
				this.pump();
				return;
			}
			this.signers?.rest();
			this.idleWaiters.splice(0).forEach(resolve => resolve());
		});
	}

	private async drain(): Promise<void> {
		while ((this.queueHead < this.queue.length || this.signing.size > 0) && !this.disposed) {
			if (this.queueHead >= this.queue.length) {
				// The rest is being read elsewhere: wait for it, or for a change to index meanwhile.
				await Promise.race([...this.signing, new Promise<void>(resolve => (this.wakeDrain = resolve))]);
				this.wakeDrain = undefined;
				continue;
			}
			const wait = this.slices.pause();
			if (wait) {
				await wait;
			}
			if (this.signers?.ready()) {
				this.handOff(this.signers);
				continue;
			}
			const slot = this.nextQueued();
			const entry = slot === undefined ? undefined : this.slots[slot];
			if (slot === undefined || !entry || entry.state !== PENDING) {
				continue;
			}
			const dirty = this.dirty.get(entry.display);
			if (dirty !== undefined) {
				this.indexBytes(entry, Buffer.from(dirty, 'utf8'));
				continue;
			}
			const generation = entry.generation;
			const bytes = await this.read(slot, entry);
			if (this.slots[slot] === entry && entry.generation === generation && entry.state === PENDING) {
				if (bytes === undefined) {
					this.skip(entry);
				} else {
					this.indexBytes(entry, bytes);
				}
			}
		}
	}

	private nextQueued(): number | undefined {
		if (this.queueHead >= this.queue.length) {
			return undefined;
		}
		const slot = this.queue[this.queueHead++];
		if (this.queueHead > 4096 && this.queueHead * 2 > this.queue.length) {
			this.queue = this.queue.slice(this.queueHead);
			this.queueHead = 0;
		}
		return slot;
	}

	/**
	 * Gives the next pending files from disk to the other threads. What comes back is taken only
	 * for a file that has not changed meanwhile, and only if it was opened where it is listed or
	 * at another file held (the rule `read` applies before reading).
	 */
	private handOff(signers: FileSigners): void {
		const batch: { slot: number; entry: Slot; generation: number; absPath: string }[] = [];
		while (batch.length < SIGN_BATCH) {
			const slot = this.nextQueued();
			if (slot === undefined) {
				break;
			}
			const entry = this.slots[slot];
			if (!entry || entry.state !== PENDING) {
				continue;
			}
			if (entry.size > this.setup.maxFileSize) {
				this.skip(entry);
			} else if (this.dirty.has(entry.display)) {
				this.indexBytes(entry, Buffer.from(this.dirty.get(entry.display)!, 'utf8'));
			} else {
				batch.push({ slot, entry, generation: entry.generation, absPath: this.absPath(slot) });
			}
		}
		if (batch.length === 0) {
			return;
		}
		const current = (file: typeof batch[number]) => this.slots[file.slot] === file.entry && file.entry.generation === file.generation && file.entry.state === PENDING;
		const work = signers.sign(batch.map(file => file.absPath), this.setup.maxFileSize).then(results => {
			batch.forEach((file, i) => {
				if (current(file)) {
					this.takeSigned(file.entry, file.absPath, results[i]);
				}
			});
		}, () => {
			// The other thread failed (it says why in its own log): these files are read here.
			for (const file of batch) {
				if (current(file)) {
					this.queue.push(file.slot);
				}
			}
		}).finally(() => this.signing.delete(work));
		this.signing.add(work);
	}

	private takeSigned(entry: Slot, absPath: string, signed: SignedFile | undefined): void {
		if (!signed || signed.signature === undefined || (signed.realPath !== absPath && this.slotOf(signed.realPath) === undefined)) {
			this.skip(entry);
			return;
		}
		entry.size = signed.size;
		entry.signature = signed.signature;
		entry.state = INDEXED;
		this.counted(entry, 1);
	}

	/** The file's bytes from disk, or undefined (gone, too large, or leading outside the held files). */
	private async read(slot: number, entry: Slot): Promise<Buffer | undefined> {
		if (entry.size > this.setup.maxFileSize) {
			this.skip(entry);
			return undefined;
		}
		const absPath = this.absPath(slot);
		try {
			const result = await this.reader.readFileUpTo(absPath, this.setup.maxFileSize, real => real === absPath || this.slotOf(real) !== undefined);
			if (result.kind === 'ok') {
				return Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength);
			}
			if (result.kind !== 'not-a-file') {
				this.skip(entry); // refused or too large: never searched until it changes
			}
		} catch {
			// Gone since it was listed: its removal is on its way.
		}
		return undefined;
	}

	private indexBytes(entry: Slot, bytes: Buffer): void {
		const signature = textSignature(bytes, this.setup.maxFileSize);
		if (signature === undefined) {
			this.skip(entry);
			return;
		}
		entry.size = bytes.length;
		entry.signature = signature;
		entry.state = INDEXED;
		this.counted(entry, 1);
	}

	private skip(entry: Slot): void {
		if (entry.state === PENDING) {
			entry.state = SKIPPED;
			entry.signature = undefined;
			this.counted(entry, 1);
		}
	}

	private folderOf(absPath: string): number {
		let best = 0;
		let bestLength = -1;
		this.setup.roots.forEach((root, i) => {
			if ((absPath === root.path || absPath.startsWith(withSep(root.path))) && root.path.length > bestLength) {
				best = i;
				bestLength = root.path.length;
			}
		});
		return best;
	}

	/** The display path a path (as listed, or real) has, if it lies in a folder. */
	private displayOf(absPath: string): string | undefined {
		const multi = this.setup.roots.length > 1;
		let found: string | undefined;
		let foundLength = -1;
		for (const root of this.setup.roots) {
			for (const base of root.realPath === root.path ? [root.path] : [root.path, root.realPath]) {
				if (absPath.startsWith(withSep(base)) && base.length > foundLength) {
					const rel = absPath.slice(withSep(base).length).split(path.sep).join('/');
					found = multi ? `${root.name}/${rel}` : rel;
					foundLength = base.length;
				}
			}
		}
		return found;
	}

	private relOf(entry: Slot): string {
		return this.setup.roots.length > 1 ? entry.display.slice(entry.display.indexOf('/') + 1) : entry.display;
	}
}

function withSep(dir: string): string {
	return dir.endsWith(path.sep) ? dir : dir + path.sep;
}
