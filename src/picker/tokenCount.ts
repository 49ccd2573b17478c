/**
 * Token counts for the picker and context bundles: the Claude tokenizer when text is at hand
 * (loaded on first use, never on activation), and a size-based estimate for resources that
 * have only been listed.
 */
export interface TokenCounter {
	/** Tokens of `text` as a Claude model (3 and later) counts them. */
	count(text: string): number;
}

interface LoadedTokenizer {
	count(text: string): number;
	readonly contentMultiplier: number;
}

let loaded: LoadedTokenizer | undefined;

function tokenizer(): LoadedTokenizer {
	if (!loaded) {
		// A plain require of a separate bundle (see esbuild.mjs): the large vocabulary is read
		// the first time a count is asked for, not when the extension activates.
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const module = require('./claudeTokenizer') as typeof import('./claudeTokenizer');
		loaded = module.createClaudeTokenizer();
	}
	return loaded;
}

/** True once the tokenizer has been loaded (tests prove activation does not load it). */
export function isTokenizerLoaded(): boolean {
	return loaded !== undefined;
}

/**
 * Longest text counted token by token. Counting runs on the extension host's thread, in
 * time that grows with the text, so a longer text is counted on its first
 * COUNT_LIMIT_CHARS characters and scaled by its length: a 16 MB read costs what 100 KB does.
 */
export const COUNT_LIMIT_CHARS = 100_000;

/** Claude tokens of `text`; 0 for empty text (extrapolated past COUNT_LIMIT_CHARS). */
export function countTokens(text: string): number {
	if (text.length === 0) {
		return 0;
	}
	const t = tokenizer();
	if (text.length > COUNT_LIMIT_CHARS) {
		const sample = text.slice(0, COUNT_LIMIT_CHARS);
		return Math.ceil(t.count(sample) * t.contentMultiplier * (text.length / sample.length));
	}
	return Math.ceil(t.count(text) * t.contentMultiplier);
}

/** Raw BPE tokens of `text` with the Claude vocabulary, unscaled (to compare with other tools). */
export function countVocabularyTokens(text: string): number {
	return text.length === 0 ? 0 : tokenizer().count(text);
}

export const claudeTokenCounter: TokenCounter = { count: countTokens };

/**
 * Bytes of UTF-8 per Claude token for text never read, rounded from what the counter above
 * gives for this project's own TypeScript and Markdown. Only for a listed size; anything read is
 * counted instead.
 */
export const BYTES_PER_TOKEN = 3;

/** Estimated tokens for a resource of `bytes` bytes that has not been read. */
export function estimateTokensFromSize(bytes: number | undefined): number {
	if (!bytes || bytes <= 0 || !Number.isFinite(bytes)) {
		return 0;
	}
	return Math.ceil(bytes / BYTES_PER_TOKEN);
}
