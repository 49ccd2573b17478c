import { UriTemplate } from '@modelcontextprotocol/client';

/** Asks the user for one variable; `filled` holds the values given so far (the completion context). */
export type AskVariable = (variable: string, filled: Readonly<Record<string, string>>) => Promise<string | undefined>;

/**
 * Fills a server's URI template by asking for each variable in turn: the URI, or undefined when
 * the user gave up. Throws the SDK's error when the template is not valid. Variable names are the
 * server's: kept in a Map and handed on as own properties only, so a `{__proto__}` or
 * `{constructor}` expands to what the user typed, not to something every object inherits.
 */
export async function fillUriTemplate(uriTemplate: string, ask: AskVariable): Promise<string | undefined> {
	const parsed = new UriTemplate(uriTemplate);
	const filled = new Map<string, string>();
	for (const variable of new Set(parsed.variableNames)) {
		const value = await ask(variable, Object.fromEntries(filled));
		if (value === undefined) {
			return undefined;
		}
		filled.set(variable, value);
	}
	return parsed.expand(Object.fromEntries(filled));
}
