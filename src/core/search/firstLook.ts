import { Buffer } from 'node:buffer';
import { ReadScratch } from '../ports';

/** Looks taken before deciding whether they are worth taking. */
const LOOKS_TO_DECIDE = 64;
/** Of those, the share that may match past which looking first is dropped for the rest of a search. */
const MOST_PASS = 0.75;

/**
 * A search's first look at a candidate's bytes before the checked read for its text (see
 * `SearchIndex.textOf`): it saves that read and the decoding when the bytes cannot match. When
 * nearly every candidate may match (a regex whose required literals are in most files), each
 * look is a read and a pass over the bytes more for nothing; after LOOKS_TO_DECIDE looks that let
 * more than MOST_PASS through, the search stops looking first. Only a cost: the scan decides.
 */
export class FirstLook {
	readonly scratch: ReadScratch = { buffer: Buffer.allocUnsafeSlow(64 * 1024) };
	private looked = 0;
	private passed = 0;

	constructor(private readonly mayMatchBytes: (bytes: Buffer) => boolean) {}

	/** Whether the next candidate gets a first look. */
	get worthIt(): boolean {
		return this.looked < LOOKS_TO_DECIDE || this.passed <= this.looked * MOST_PASS;
	}

	mayMatch(bytes: Buffer): boolean {
		this.looked++;
		const may = this.mayMatchBytes(bytes);
		if (may) {
			this.passed++;
		}
		return may;
	}
}
