import { Emitter } from '../../src/common/event';
import { ListedRead, ReadResult, ReadScratch } from '../../src/core/ports';
import { NodeFileSystem } from '../../src/node/nodeFileSystem';

/**
 * The disk as it is, except that the file reads `holds` picks wait until `release()`: the search
 * index's background work stopped at a known point, with no race against the clock.
 */
export class HeldReads extends NodeFileSystem {
	private readonly heldEmitter = new Emitter<string>();
	/** Fires with a read's path when it starts waiting. */
	readonly onDidHold = this.heldEmitter.event;
	/** The paths of the reads held so far (those released too). */
	readonly held: string[] = [];
	private released = false;
	private readonly waiting: (() => void)[] = [];

	constructor(private readonly holds: (filePath: string) => boolean) {
		super();
	}

	override async readFileUpTo(filePath: string, maxBytes: number, accept: (realPath: string) => boolean | Promise<boolean>): Promise<ReadResult> {
		await this.hold(filePath);
		return super.readFileUpTo(filePath, maxBytes, accept);
	}

	override async readListedFile(filePath: string, maxBytes: number, scratch: ReadScratch, listedSize?: number): Promise<ListedRead> {
		await this.hold(filePath);
		return super.readListedFile(filePath, maxBytes, scratch, listedSize);
	}

	private async hold(filePath: string): Promise<void> {
		if (!this.released && this.holds(filePath)) {
			await new Promise<void>(resolve => {
				this.waiting.push(resolve);
				this.held.push(filePath);
				this.heldEmitter.fire(filePath);
			});
		}
	}

	/** Lets every held read go on, and holds none from now on. */
	release(): void {
		this.released = true;
		this.waiting.splice(0).forEach(resolve => resolve());
	}
}
