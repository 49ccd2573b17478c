// The body of a signer thread (bundled alone as dist/signerWorker.js; ThreadFileSigners starts it
// from the search's thread): reads files and signs their text, as the index does in its own
// thread, and says where each opened file really was. It decides nothing about what is served.
import { Buffer } from 'node:buffer';
import { parentPort } from 'node:worker_threads';
import { SignedFile } from '../core/search/ports';
import { textSignature } from '../core/search/textSignature';
import { NodeFileSystem } from './nodeFileSystem';
import { SignReply, SignRequest } from './signerMessages';

if (parentPort) {
	const port = parentPort;
	const files = new NodeFileSystem();
	const signed = async (absPath: string, maxFileSize: number): Promise<SignedFile | undefined> => {
		let realPath = absPath;
		try {
			const result = await files.readFileUpTo(absPath, maxFileSize, real => {
				realPath = real;
				return true; // the index takes the file only if it holds what `realPath` names
			});
			if (result.kind !== 'ok') {
				return { realPath, size: 0, signature: undefined };
			}
			const bytes = Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength);
			return { realPath, size: bytes.length, signature: textSignature(bytes, maxFileSize) };
		} catch {
			return undefined; // gone since it was listed
		}
	};
	port.on('message', (request: SignRequest) => void (async () => {
		const results: (SignedFile | undefined)[] = [];
		for (const absPath of request.paths) {
			results.push(await signed(absPath, request.maxFileSize));
		}
		const reply: SignReply = { id: request.id, results };
		port.postMessage(reply, results.flatMap(r => (r?.signature ? [r.signature.buffer as ArrayBuffer] : [])));
	})());
}
