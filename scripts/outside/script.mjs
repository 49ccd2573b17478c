// The conversation a model stand-in plays with a real client: one resource tool call per step,
// each checked against the tool result the client sends back, then a final answer. Stateless:
// the steps reached and their results are read from the conversation each request carries, so
// the client's side requests (titles, quota checks, retries) cannot push the script off course.
import * as http from 'node:http';

/**
 * `steps`: [{ label, kind: 'list' | 'read', uri?, expect: string[] }] (every string must be in the result). Returns the script with
 * `outcomes` (one per step: ok, detail) and `next(results)`, which takes the texts of the
 * resource tool results so far, in order, and says what the model does now.
 */
export function createScript(steps) {
	const outcomes = steps.map(step => ({ label: step.label, ok: false, detail: 'the client never sent this tool result' }));
	return {
		steps,
		outcomes,
		next(results) {
			results.slice(0, steps.length).forEach((text, i) => {
				const missing = steps[i].expect.filter(e => !text.includes(e));
				outcomes[i] = { label: steps[i].label, ok: missing.length === 0, detail: missing.length === 0 ? '' : `tool result lacks ${JSON.stringify(missing)}: ${JSON.stringify(text.slice(0, 300))}` };
			});
			return results.length < steps.length ? { call: steps[results.length] } : { final: 'Done: every resource was read.' };
		},
	};
}

/** Text of a tool result whatever its shape (string, content blocks, nested JSON). */
export function resultText(value) {
	return typeof value === 'string' ? value : JSON.stringify(value ?? '');
}

/**
 * A loopback HTTP server that hands each JSON request to `handle(req, body, res)`. Keeps a log of
 * every request line, so a run that goes wrong shows what the client asked for.
 */
export function startStandIn(handle) {
	const log = [];
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', c => chunks.push(c));
		req.on('end', () => {
			const raw = Buffer.concat(chunks).toString('utf8');
			let body;
			try {
				body = raw ? JSON.parse(raw) : {};
			} catch {
				body = { raw };
			}
			log.push(`${req.method} ${req.url}`);
			try {
				handle(req, body, res);
			} catch (err) {
				log.push(`  stand-in error: ${err instanceof Error ? err.message : String(err)}`);
				if (!res.headersSent) {
					res.writeHead(500, { 'content-type': 'application/json' });
				}
				res.end('{}');
			}
		});
	});
	return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve({
		server,
		log,
		url: `http://127.0.0.1:${server.address().port}`,
		close: () => {
			server.closeAllConnections();
			server.close();
		},
	})));
}

/** Writes server-sent events: [event name or undefined, data object] pairs, then ends. */
export function sendEvents(res, events) {
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	for (const [event, data] of events) {
		res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
	}
	res.end();
}
