import { SignedFile } from '../core/search/ports';

/** What the search's thread asks a signer thread (src/node/signerWorker.ts): read and sign these files. */
export interface SignRequest {
	readonly id: number;
	readonly paths: readonly string[];
	readonly maxFileSize: number;
	/** Each file's size as listed (`FileSigners.sign`). */
	readonly sizes?: readonly number[];
}

/** The signatures, in the request's order (undefined: the file could not be opened). */
export interface SignReply {
	readonly id: number;
	readonly results: readonly (SignedFile | undefined)[];
}
