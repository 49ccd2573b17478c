import { fileUri } from '../uriGuard';
import { FilesAnswerData, TextAnswerData } from './ports';
import { FilesQuery, MAX_TEXT_MAX, TextQuery } from './searchQuery';

/**
 * A text answer as `search://text` returns it (application/json): files with their matched
 * lines, each line with a URI that reads just that line (`file:///…?lines=N`, the line ranges'
 * form). `served` checks every file once more against the one rule: a file the rule stopped
 * serving since the index last heard of it never shows.
 */
export function textAnswer(query: TextQuery, data: TextAnswerData, budgetMs: number, served: (absPath: string) => boolean): string {
	const files = data.files.filter(f => served(f.path)).map(f => {
		const uri = fileUri(f.path);
		return {
			uri,
			path: f.display,
			matches: f.hits.map(h => ({ line: h.line, column: h.column, text: h.text, uri: `${uri}?lines=${h.line}` })),
		};
	});
	const matchCount = files.reduce((n, f) => n + f.matches.length, 0);
	const body: Record<string, unknown> = { files, matchCount, fileCount: files.length, complete: data.complete };
	if (!data.complete) {
		body.reason = data.reason === 'max'
			? `Stopped at max=${query.max} matching lines; ask for more with a higher max (at most ${MAX_TEXT_MAX.toLocaleString('en-US')}) or narrow q or glob`
			: `Stopped after the ${budgetMs / 1000} s time budget${data.unindexed > 0 ? ' while the index was still being built' : ''}; narrow q or glob (a longer literal, or a regex with a literal part) for a complete answer`;
	}
	return JSON.stringify(body);
}

/** A path answer as `search://files` returns it: best first. */
export function filesAnswer(_query: FilesQuery, data: FilesAnswerData, served: (absPath: string) => boolean): string {
	const files = data.files.filter(f => served(f.path)).map(f => ({ uri: fileUri(f.path), path: f.display, score: f.score }));
	return JSON.stringify({ files, complete: data.complete });
}
