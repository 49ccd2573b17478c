/**
 * "540 tok", "12.3k tok" for a counted number (tokenCount.ts), with a leading "~" when it is
 * only estimated from a size.
 */
export function formatTokens(tokens: number, counted = false): string {
	const mark = counted ? '' : '~';
	if (tokens < 1000) {
		return `${mark}${tokens} tok`;
	}
	if (tokens < 100_000) {
		return `${mark}${(tokens / 1000).toFixed(1).replace(/\.0$/, '')}k tok`;
	}
	return `${mark}${Math.round(tokens / 1000)}k tok`;
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
