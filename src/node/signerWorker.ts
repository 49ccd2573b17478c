// The body of a signer thread (bundled alone as dist/signerWorker.js; ThreadFileSigners starts it
// from the search's thread): reads files and signs their text, as the index does in its own
// thread, and says where a listed name that is a link led. It decides nothing about what is served.
import { Buffer } from 'node:buffer';
import { parentPort } from 'node:worker_threads';
import { SignedFile } from '../core/search/ports';
import { signedFile } from '../core/search/textSignature';
import { readListedFileSync } from './nodeFileSystem';
import { SignReply, SignRequest } from './signerMessages';

if (parentPort) {
	const port = parentPort;
	// One buffer for every file: the bytes are signed and dropped before the next read.
	const scratch = { buffer: Buffer.allocUnsafeSlow(64 * 1024) };
	const signed = (absPath: string, maxFileSize: number, listedSize: number | undefined): SignedFile | undefined => {
		try {
			return signedFile(readListedFileSync(absPath, maxFileSize, scratch, listedSize), maxFileSize);
		} catch {
			return undefined; // gone since it was listed
		}
	};
	// A batch is read and signed in one go (no awaits), so batches never share the buffer.
	port.on('message', (request: SignRequest) => {
		const results = packed(request.paths.map((absPath, i) => signed(absPath, request.maxFileSize, request.sizes?.[i])));
		const reply: SignReply = { id: request.id, results };
		const buffer = results.find(r => r?.signature)?.signature?.buffer as ArrayBuffer | undefined;
		port.postMessage(reply, buffer ? [buffer] : []);
	});
}

/**
 * The results with their signatures copied into one buffer, each a view of it: the index's
 * thread then receives one buffer a batch, not a buffer per file, whose allocations piled up
 * there until a full collection.
 */
function packed(results: (SignedFile | undefined)[]): (SignedFile | undefined)[] {
	let words = 0;
	for (const result of results) {
		words += result?.signature?.length ?? 0;
	}
	const all = new Int32Array(words);
	let at = 0;
	return results.map(result => {
		if (!result?.signature) {
			return result;
		}
		all.set(result.signature, at);
		at += result.signature.length;
		return { ...result, signature: all.subarray(at - result.signature.length, at) };
	});
}
