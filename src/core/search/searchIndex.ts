import { Buffer } from 'node:buffer';
import * as path from 'node:path';
import { EventLoopSlices } from '../files/eventLoopSlices';
import { FileSystemReader, ListedRead, ReadScratch } from '../ports';
import { batchFiles, DirtyText, FileBatch, FileSigners, IndexProgress, IndexSetup, SignedFile } from './ports';
import { INDEXED, IndexedFiles, PENDING, SKIPPED } from './indexedFiles';
import { SignatureStore } from './signatureStore';
import { signedFile, textSignature } from './textSignature';

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

/**
 * Files a cache holds, as read back: their signatures already in a store of their own (each file's
 * `address` there, its `signature` a view of it), which the first list of a process takes over
 * whole instead of copying from.
 */
export interface SeedFiles {
	readonly files: Map<string, CachedFile & { readonly address: number }>;
	readonly signatures: SignatureStore;
}

/** Files for a cache, each made as it is read: to be read before the index changes (in one turn). */
export interface CachedFiles extends Iterable<CachedFile> {
	readonly length: number;
}

/**
 * The text index of the served files: a 4-gram signature per file (`quadgrams.ts`), built in the
 * background a slice at a time and kept current from the files provider's changes and the open
 * documents' unsaved text. It holds no text: a query reads the files its signatures cannot rule
 * out, so memory grows with an eighth of the text, not with the text.
 */
export class SearchIndex {
	private setup: IndexSetup = { roots: [], maxFileSize: 0 };
	private files = new IndexedFiles();
	private signatures = new SignatureStore();
	/** Counts every change of any slot (`IndexedFiles.generations`). */
	private stamp = 0;
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
	/** A list being received in parts (`reset` with `more`), not searched until it is whole. */
	private next: { readonly setup: IndexSetup; readonly files: IndexedFiles } | undefined;
	/** Files a cache holds, offered to the next reset (then dropped). */
	private seeded: SeedFiles | undefined;
	private reusedCount = 0;
	/** The background reads' buffer: one for every file, the bytes are signed and dropped. */
	private readonly scratch: ReadScratch = { buffer: Buffer.allocUnsafeSlow(64 * 1024) };
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
	seed(files: SeedFiles): void {
		this.seeded = files;
	}

	/** Files the last reset took from the seed (not read again). */
	get reused(): number {
		return this.reusedCount;
	}

	/**
	 * The files to hold from now on, in one batch or in parts (`more`: `extendReset` brings the
	 * rest); those that stayed (same size and time) keep their signature. The list before is
	 * searched until the last part.
	 */
	reset(setup: IndexSetup, files: FileBatch, more = false): void {
		this.next = { setup, files: new IndexedFiles() };
		this.extendReset(files, more);
	}

	/** The next part of the list a `reset` with `more` began (none begun: nothing to do). */
	extendReset(files: FileBatch, more = false): void {
		const next = this.next;
		if (!next) {
			return;
		}
		for (const file of batchFiles(files)) {
			next.files.add(file.display, file.folder, file.size, file.mtimeMs, ++this.stamp);
		}
		if (!more) {
			this.next = undefined;
			this.takeList(next.setup, next.files);
		}
	}

	/** The new list replaces the old one in one step, taking over what is still current of it. */
	private takeList(setup: IndexSetup, next: IndexedFiles): void {
		const old = this.files;
		const seeded = this.seeded;
		this.seeded = undefined;
		// The seed's store becomes the index's when the index holds nothing yet (a process's first
		// list): its signatures stay where they were read to, and what the list does not take is
		// freed. Copied, they would leave the seed's slabs for a collection that an idle worker
		// may not run for a long time.
		const adopted = seeded !== undefined && this.signatures.empty ? seeded.signatures : undefined;
		if (adopted) {
			this.signatures = adopted;
		}
		const taken = new Set<number>();
		this.reusedCount = 0;
		this.setup = setup;
		this.files = next;
		this.queue = [];
		this.queueHead = 0;
		this.ordered = undefined;
		this.counts = { indexed: 0, textBytes: 0, indexBytes: 0 };
		for (let slot = 0; slot < next.count; slot++) {
			const display = next.display(slot);
			const size = next.sizes.get(slot);
			const mtimeMs = next.mtimes.get(slot);
			const kept = old.slotOf(display);
			if (kept !== undefined && old.states.get(kept) !== PENDING) {
				if (old.sizes.get(kept) === size && old.mtimes.get(kept) === mtimeMs) {
					// Its signature moves over, and is no longer the old slot's to free.
					next.states.set(slot, old.states.get(kept));
					next.signatureAddresses.set(slot, old.signatureAddresses.get(kept));
					next.signatureLengths.set(slot, old.signatureLengths.get(kept));
					old.signatureLengths.set(kept, 0);
					old.states.set(kept, PENDING);
					this.counted(slot, 1);
				}
				continue;
			}
			const cached = seeded?.files.get(display);
			if (cached && cached.size === size && cached.mtimeMs === mtimeMs) {
				next.states.set(slot, cached.state);
				if (cached.signature && adopted) {
					next.signatureAddresses.set(slot, cached.address);
					next.signatureLengths.set(slot, cached.signature.length);
					taken.add(cached.address);
				} else if (cached.signature) {
					this.store(slot, cached.signature);
				}
				this.counted(slot, 1);
				this.reusedCount++;
			}
		}
		for (let slot = 0; slot < old.count; slot++) {
			if (old.length(slot) > 0) {
				this.signatures.free(old.address(slot), old.length(slot));
			}
		}
		if (adopted) {
			for (const cached of seeded!.files.values()) {
				if (cached.signature && !taken.has(cached.address)) {
					adopted.free(cached.address, cached.signature.length);
				}
			}
		}
		for (const display of [...this.dirty.keys()]) {
			const slot = next.slotOf(display);
			if (slot === undefined) {
				this.dirty.delete(display);
			} else if (next.states.get(slot) !== PENDING) {
				this.invalidate(slot); // what it kept was the unsaved text's signature, or the disk's
			}
		}
		this.signatures.compact(next);
		this.requeueAll();
	}

	/** Files written or made, files gone, and unsaved text (which wins over the disk while it lasts). */
	update(changed: FileBatch, removed: readonly string[], dirty: readonly DirtyText[]): void {
		for (const file of batchFiles(changed)) {
			const slot = this.files.slotOf(file.display);
			if (slot === undefined) {
				this.enqueue(this.add(file.display, file.folder, file.size, file.mtimeMs));
				continue;
			}
			this.files.sizes.set(slot, file.size);
			this.files.mtimes.set(slot, file.mtimeMs);
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
			const display = this.files.display(slot);
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
		return display === undefined ? undefined : this.files.slotOf(display);
	}

	slotOfDisplay(display: string): number | undefined {
		return this.files.slotOf(display);
	}

	display(slot: number): string {
		return this.files.display(slot);
	}

	/** Whether the slot still holds a file (a removed one's slot may be empty, or reused). */
	has(slot: number): boolean {
		return this.files.has(slot);
	}

	absPath(slot: number): string {
		const root = this.setup.roots[this.files.folders.get(slot)];
		// Joined, not `path.join`ed: the display path is already normal, and normalizing it again
		// for every file showed in the profile of a build.
		const rel = this.relOf(slot);
		return withSep(root.path) + (path.sep === '/' ? rel : rel.split('/').join(path.sep));
	}

	/** The signature when the file is indexed; undefined while it is pending; null when there is nothing to search. */
	signatureOf(slot: number): Int32Array | undefined | null {
		const state = this.files.states.get(slot);
		return state === SKIPPED ? null : state === INDEXED ? this.storedSignature(slot) : undefined;
	}

	/**
	 * `test` on the file's signature where the index keeps it (a query looks at every file's, so
	 * no view is made for each); undefined while it is pending; null when there is nothing to search.
	 */
	probeSignature(slot: number, test: (words: Int32Array, start: number, end: number) => boolean): boolean | undefined | null {
		const files = this.files;
		const state = files.states.get(slot);
		if (state !== INDEXED) {
			return state === SKIPPED ? null : undefined;
		}
		const length = files.length(slot);
		return length === 0 ? undefined : this.signatures.probe(files.address(slot), length, test);
	}

	/** Every file in the order answers list them: by display path (code units). */
	order(): readonly number[] {
		if (!this.ordered) {
			const files = this.files;
			const live: number[] = [];
			for (let i = 0; i < files.count; i++) {
				if (files.has(i)) {
					live.push(i);
				}
			}
			live.sort((a, b) => (files.display(a) < files.display(b) ? -1 : 1));
			this.ordered = live;
		}
		return this.ordered;
	}

	/**
	 * The text to search for a file now: its unsaved text, else what the disk holds (read as the
	 * files provider reads, refusing what leads outside the held files). Undefined for a binary,
	 * a file over the cap, one that is gone, or one whose bytes `look.mayMatch` rules out. A
	 * pending file read here is indexed on the way.
	 *
	 * With `look`, the file is first read as the index reads it, into the search's own buffer, and
	 * only a file whose bytes may match is read again, checked, for its text: most files a
	 * signature lets through lack what is searched, and those were each a checked read and a
	 * buffer of their own. The unchecked bytes decide only whether to look further.
	 */
	async textOf(slot: number, look?: { mayMatch(bytes: Buffer): boolean; scratch: ReadScratch }): Promise<string | undefined> {
		const files = this.files;
		if (!files.has(slot) || files.states.get(slot) === SKIPPED) {
			return undefined;
		}
		const display = files.display(slot);
		const dirty = this.dirty.get(display);
		if (dirty !== undefined) {
			if (files.states.get(slot) === PENDING) {
				this.indexBytes(slot, Buffer.from(dirty, 'utf8'));
			}
			return files.states.get(slot) === SKIPPED ? undefined : dirty;
		}
		const still = () => files === this.files && files.has(slot) && files.display(slot) === display;
		if (look) {
			const generation = files.generations.get(slot);
			const maxFileSize = this.setup.maxFileSize;
			let read: ListedRead;
			try {
				read = await this.reader.readListedFile(this.absPath(slot), maxFileSize, look.scratch, files.sizes.get(slot));
			} catch {
				return undefined; // gone since it was listed: its removal is on its way
			}
			if (!still()) {
				return undefined;
			}
			if (files.states.get(slot) === PENDING && files.generations.get(slot) === generation) {
				this.takeSigned(slot, signedFile(read, maxFileSize));
			}
			const { result } = read;
			if (result.kind !== 'ok' || files.states.get(slot) === SKIPPED || !look.mayMatch(Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength))) {
				return undefined;
			}
		}
		const generation = files.generations.get(slot);
		const bytes = await this.read(slot);
		if (bytes === undefined || !still()) {
			return undefined;
		}
		// Not indexed when the file changed while it was read: the bytes may be from before.
		if (files.states.get(slot) === PENDING && files.generations.get(slot) === generation) {
			this.indexBytes(slot, bytes);
		}
		// Not asked again whether the bytes may match: they are the same but for a file changed since
		// the look, whose text is then searched as it is now. Asking cost a second pass over every
		// candidate's bytes.
		return files.states.get(slot) === SKIPPED ? undefined : servedText(bytes);
	}

	/**
	 * The files whose state is current on disk, for a cache: not the pending ones, and not those
	 * with unsaved text, whose signature may be that text's (never kept beyond this process).
	 */
	snapshot(): CachedFiles {
		const { files } = this;
		let length = 0;
		for (let slot = 0; slot < files.count; slot++) {
			if (this.cacheable(files, slot)) {
				length++;
			}
		}
		return { length, [Symbol.iterator]: () => this.cachedFiles(files) };
	}

	/** Made one at a time as a cache is written: all at once, an object and a view per file lived as long as the write. */
	private *cachedFiles(files: IndexedFiles): Generator<CachedFile> {
		for (let slot = 0; slot < files.count; slot++) {
			if (this.cacheable(files, slot)) {
				yield { display: files.display(slot), size: files.sizes.get(slot), mtimeMs: files.mtimes.get(slot), state: files.states.get(slot), signature: this.storedSignature(slot) };
			}
		}
	}

	private cacheable(files: IndexedFiles, slot: number): boolean {
		return files.has(slot) && files.states.get(slot) !== PENDING && !this.dirty.has(files.display(slot));
	}

	/** The folders and the read cap the index is built for now. */
	currentSetup(): IndexSetup {
		return this.setup;
	}

	progress(): IndexProgress {
		return { indexed: this.counts.indexed, total: this.files.size, textBytes: this.counts.textBytes, indexBytes: this.counts.indexBytes };
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

	private add(display: string, folder: number, size: number, mtimeMs: number): number {
		const slot = this.files.add(display, folder, size, mtimeMs, ++this.stamp);
		this.ordered = undefined;
		return slot;
	}

	private remove(slot: number): void {
		const display = this.files.display(slot);
		this.counted(slot, -1);
		this.dropSignature(slot);
		this.files.generations.set(slot, ++this.stamp);
		this.files.remove(slot);
		this.dirty.delete(display);
		this.ordered = undefined;
	}

	/** The file changed: looked at again (now by a query, or by the background work). */
	private invalidate(slot: number): void {
		this.counted(slot, -1);
		this.files.states.set(slot, PENDING);
		this.dropSignature(slot);
		this.files.generations.set(slot, ++this.stamp);
		this.enqueue(slot);
	}

	/** Whether `slot` of `files` is still the same file as when `generation` was read (nothing reset, removed or changed it). */
	private holds(files: IndexedFiles, slot: number, generation: number): boolean {
		return files === this.files && files.has(slot) && files.generations.get(slot) === generation;
	}

	private storedSignature(slot: number): Int32Array | undefined {
		const length = this.files.length(slot);
		return length === 0 ? undefined : this.signatures.get(this.files.address(slot), length);
	}

	private store(slot: number, signature: Int32Array): void {
		this.dropSignature(slot);
		this.files.signatureAddresses.set(slot, this.signatures.put(signature));
		this.files.signatureLengths.set(slot, signature.length);
	}

	private dropSignature(slot: number): void {
		const length = this.files.length(slot);
		if (length > 0) {
			this.signatures.free(this.files.address(slot), length);
			this.files.signatureLengths.set(slot, 0);
		}
	}

	private counted(slot: number, sign: 1 | -1): void {
		if (this.files.states.get(slot) === PENDING) {
			return;
		}
		this.counts.indexed += sign;
		const length = this.files.length(slot);
		if (length > 0) {
			this.counts.textBytes += sign * this.files.sizes.get(slot);
			this.counts.indexBytes += sign * length * Int32Array.BYTES_PER_ELEMENT;
		}
	}

	private requeueAll(): void {
		for (let i = 0; i < this.files.count; i++) {
			if (this.files.has(i) && this.files.states.get(i) === PENDING) {
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
			// Idle: the space of signatures that changed files left behind is worth taking back now.
			this.signatures.compact(this.files);
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
			const files = this.files;
			if (slot === undefined || !files.has(slot) || files.states.get(slot) !== PENDING) {
				continue;
			}
			const dirty = this.dirty.get(files.display(slot));
			if (dirty !== undefined) {
				this.indexBytes(slot, Buffer.from(dirty, 'utf8'));
				continue;
			}
			if (files.sizes.get(slot) > this.setup.maxFileSize) {
				this.skip(slot);
				continue;
			}
			const generation = files.generations.get(slot);
			const signed = await this.signHere(this.absPath(slot), files.sizes.get(slot));
			if (this.holds(files, slot, generation) && files.states.get(slot) === PENDING) {
				this.takeSigned(slot, signed);
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
		const files = this.files;
		// Only numbers are kept while the other thread works: what waits that long outlives the
		// young generation, and a path and an object per file kept that long piled up as garbage
		// that only a full collection freed.
		const slots: number[] = [];
		const generations: number[] = [];
		const paths: string[] = [];
		const sizes: number[] = [];
		while (slots.length < SIGN_BATCH) {
			const slot = this.nextQueued();
			if (slot === undefined) {
				break;
			}
			if (!files.has(slot) || files.states.get(slot) !== PENDING) {
				continue;
			}
			const dirty = this.dirty.get(files.display(slot));
			if (files.sizes.get(slot) > this.setup.maxFileSize) {
				this.skip(slot);
			} else if (dirty !== undefined) {
				this.indexBytes(slot, Buffer.from(dirty, 'utf8'));
			} else {
				slots.push(slot);
				generations.push(files.generations.get(slot));
				paths.push(this.absPath(slot));
				sizes.push(files.sizes.get(slot));
			}
		}
		if (slots.length === 0) {
			return;
		}
		const current = (i: number) => this.holds(files, slots[i], generations[i]) && files.states.get(slots[i]) === PENDING;
		const work = signers.sign(paths, this.setup.maxFileSize, sizes).then(results => {
			for (let i = 0; i < slots.length; i++) {
				if (current(i)) {
					this.takeSigned(slots[i], results[i]);
				}
			}
		}, () => {
			// The other thread failed (it says why in its own log): these files are read here.
			for (let i = 0; i < slots.length; i++) {
				if (current(i)) {
					this.queue.push(slots[i]);
				}
			}
		}).finally(() => this.signing.delete(work));
		this.signing.add(work);
	}

	private takeSigned(slot: number, signed: SignedFile | undefined): void {
		const realPath = signed?.realPath;
		if (!signed || signed.signature === undefined || (realPath !== undefined && realPath !== this.absPath(slot) && this.slotOf(realPath) === undefined)) {
			this.skip(slot);
			return;
		}
		this.files.sizes.set(slot, signed.size);
		this.store(slot, signed.signature);
		this.files.states.set(slot, INDEXED);
		this.counted(slot, 1);
	}

	/** Reads and signs a listed file in this thread, as the signer threads do in theirs. */
	private async signHere(absPath: string, listedSize: number): Promise<SignedFile | undefined> {
		try {
			return signedFile(await this.reader.readListedFile(absPath, this.setup.maxFileSize, this.scratch, listedSize), this.setup.maxFileSize);
		} catch {
			return undefined; // gone since it was listed
		}
	}

	/** The file's bytes from disk, or undefined (gone, too large, or leading outside the held files). */
	private async read(slot: number): Promise<Buffer | undefined> {
		const files = this.files;
		if (files.sizes.get(slot) > this.setup.maxFileSize) {
			this.skip(slot);
			return undefined;
		}
		const generation = files.generations.get(slot);
		const absPath = this.absPath(slot);
		try {
			const result = await this.reader.readFileUpTo(absPath, this.setup.maxFileSize, real => real === absPath || this.slotOf(real) !== undefined);
			if (result.kind === 'ok') {
				return Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength);
			}
			if (result.kind !== 'not-a-file' && this.holds(files, slot, generation)) {
				this.skip(slot); // refused or too large: never searched until it changes
			}
		} catch {
			// Gone since it was listed: its removal is on its way.
		}
		return undefined;
	}

	private indexBytes(slot: number, bytes: Buffer): void {
		const signature = textSignature(bytes, this.setup.maxFileSize);
		if (signature === undefined) {
			this.skip(slot);
			return;
		}
		this.files.sizes.set(slot, bytes.length);
		this.store(slot, signature);
		this.files.states.set(slot, INDEXED);
		this.counted(slot, 1);
	}

	private skip(slot: number): void {
		if (this.files.states.get(slot) === PENDING) {
			this.files.states.set(slot, SKIPPED);
			this.dropSignature(slot);
			this.counted(slot, 1);
		}
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

	private relOf(slot: number): string {
		const display = this.files.display(slot);
		return this.setup.roots.length > 1 ? display.slice(display.indexOf('/') + 1) : display;
	}
}

/**
 * The text of a file's bytes as a read serves it (`decodeText` drops a leading byte order mark):
 * the columns of a match and the line its URI reads agree, and `^` matches at the first line's start.
 */
function servedText(bytes: Buffer): string {
	return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.toString('utf8', 3) : bytes.toString('utf8');
}

function withSep(dir: string): string {
	return dir.endsWith(path.sep) ? dir : dir + path.sep;
}
