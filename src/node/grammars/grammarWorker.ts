// The body of the grammars' worker thread (bundled alone as dist/grammarWorker.js;
// ThreadGrammarParser starts it): parses each file it is sent with the same parser the hosts
// used in their own thread, one at a time, and posts the declarations back.
import { parentPort, workerData } from 'node:worker_threads';
import { GRAMMARS } from './grammarCatalog';
import { GrammarWorkerData, ParseAnswer, ParseRequest } from './grammarMessages';
import { TreeSitterParser } from './treeSitterParser';

const parser = new TreeSitterParser((workerData as GrammarWorkerData).grammarDir);

parentPort!.on('message', (request: ParseRequest) => {
	const language = GRAMMARS.find(g => g.id === request.languageId);
	const answered = language ? parser.parse(language, request.text) : Promise.resolve([]);
	answered.then(
		declarations => parentPort!.postMessage({ id: request.id, declarations } satisfies ParseAnswer),
		(err: unknown) => parentPort!.postMessage({ id: request.id, failed: err instanceof Error ? err.message : String(err) } satisfies ParseAnswer),
	);
});
