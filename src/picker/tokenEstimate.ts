/**
 * A rough token count for budgeting context: about four characters of English or code per
 * token (the rule of thumb OpenAI and Anthropic both publish for their tokenizers). It is an
 * estimate shown as "~N tokens", never used to cut content.
 */
export const CHARS_PER_TOKEN = 4;

/** Estimated tokens for `chars` characters (or bytes of UTF-8 text, which are close for code). */
export function estimateTokens(chars: number | undefined): number {
	if (!chars || chars <= 0 || !Number.isFinite(chars)) {
		return 0;
	}
	return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** "~540 tok", "~12.3k tok" */
export function formatTokens(tokens: number): string {
	if (tokens < 1000) {
		return `~${tokens} tok`;
	}
	if (tokens < 100_000) {
		return `~${(tokens / 1000).toFixed(1).replace(/\.0$/, '')}k tok`;
	}
	return `~${Math.round(tokens / 1000)}k tok`;
}

/** "812 B", "2.1 KB", "3.4 MB" */
export function formatSize(bytes: number): string {
	if (bytes < 1024) {
		return `${bytes} B`;
	}
	if (bytes < 1024 * 1024) {
		return `${(bytes / 1024).toFixed(1).replace(/\.0$/, '')} KB`;
	}
	return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}
