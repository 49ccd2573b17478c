// A stand-in for the Gemini API (generateContent / streamGenerateContent), enough for Gemini CLI:
// it answers each main-loop request with the script's next tool call (a resource tool of Gemini
// CLI's, or one of our server's tools by the name Gemini CLI gives it), or the final text.
// The CLI's side requests (next-speaker check, model routing) get a short JSON or text answer.
import { resultText, type Script, type ScriptStep } from './script.js';
import type { StandIn } from './standInServer.js';
import { sendEvents, startStandIn } from './standInServer.js';

const TOOLS: Record<string, string> = { list: 'list_mcp_resources', read: 'read_mcp_resource' };

/** The parts of a generateContent request the stand-in reads. */
interface GenerateContentRequest {
	tools: { functionDeclarations?: { name: string }[] }[];
	contents: Content[];
	generationConfig: { responseMimeType?: string };
}
interface Content {
	role?: string;
	parts?: { text?: string; functionResponse?: { name: string; response: unknown } }[];
}

/** The stand-in, with the user text of each main-loop request (to check what a mention expanded into). */
export interface GeminiStandIn extends StandIn {
	userTexts: string[];
}

/** Gemini CLI 0.61's name for a tool of the MCP server `serverName` (its characters kept: letters, digits, _-.:). */
export function geminiToolName(serverName: string, tool: string): string {
	return `mcp_${serverName}_${tool}`;
}

/** The script's tool results in order, from the functionResponse parts of the conversation. */
function scriptedResults(contents: Content[] | undefined, scripted: ReadonlySet<string>): string[] {
	const results: string[] = [];
	for (const content of Array.isArray(contents) ? contents : []) {
		for (const part of content.parts ?? []) {
			if (part.functionResponse && scripted.has(part.functionResponse.name)) {
				results.push(resultText(part.functionResponse.response));
			}
		}
	}
	return results;
}

function candidate(parts: object[]): object {
	return {
		candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
		usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
		modelVersion: 'outside-stand-in',
	};
}

/** The text the user sent (what an `@server:uri` mention expands into), without tool results. */
function userText(contents: Content[] | undefined): string {
	return (Array.isArray(contents) ? contents : []).filter(c => c.role === 'user')
		.flatMap(c => c.parts ?? []).map(p => p.text ?? '').join('\n');
}

/**
 * Starts the stand-in for `script` (see script.ts); `args(step)` gives the arguments of a resource
 * tool step (the CLI's own parameter names), `serverName` names our server's tools. `standIn.userTexts`
 * keeps the user text of each main-loop request, to check what a mention expanded into.
 */
export async function startGeminiStandIn(script: Script, args: (step: ScriptStep) => object, serverName: string): Promise<GeminiStandIn> {
	let calls = 0;
	const nameOf = (step: ScriptStep) => step.kind === 'tool' ? geminiToolName(serverName, step.tool!) : TOOLS[step.kind];
	const scripted = new Set(script.steps.map(nameOf));
	const userTexts: string[] = [];
	const standIn = await startStandIn<GenerateContentRequest>((req, body, res) => {
		const route = req.url.split('?')[0];
		if (route.endsWith(':countTokens')) {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ totalTokens: 10 }));
			return;
		}
		const streaming = route.endsWith(':streamGenerateContent');
		if (!streaming && !route.endsWith(':generateContent')) {
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: { code: 404, message: 'not served by the stand-in', status: 'NOT_FOUND' } }));
			return;
		}
		const declarations = (body.tools ?? []).flatMap(t => t.functionDeclarations ?? []);
		const offered = declarations.map(d => d.name);
		standIn.log.push(`  tools: ${offered.join(', ')}`);
		let parts: object[];
		if (offered.includes(TOOLS.list)) {
			userTexts.push(userText(body.contents));
			const next = script.next(scriptedResults(body.contents, scripted));
			calls += 1;
			parts = next.final !== undefined
				? [{ text: next.final }]
				: [{ functionCall: { id: `call_${calls}`, name: nameOf(next.call), args: next.call.kind === 'tool' ? next.call.args ?? {} : args(next.call) } }];
		} else if (body.generationConfig?.responseMimeType === 'application/json') {
			// Side questions with a JSON schema: the user speaks next; any routing picks the default.
			parts = [{ text: JSON.stringify({ reasoning: 'stand-in', next_speaker: 'user', model_choice: 'pro', complexity_reasoning: 'stand-in', complexity_score: 50 }) }];
		} else {
			parts = [{ text: 'ok' }];
		}
		if (streaming) {
			sendEvents(res, [[undefined, candidate(parts)]]);
		} else {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify(candidate(parts)));
		}
	});
	return { ...standIn, userTexts };
}
