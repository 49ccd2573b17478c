/**
 * `fn` over `items`, at most `limit` at a time, results in the order of `items`. The tooling's
 * checks and benches start processes and connections: this bounds how many run at once.
 */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
	const results = new Array<R>(items.length);
	let next = 0;
	await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
		while (next < items.length) {
			const i = next++;
			results[i] = await fn(items[i]);
		}
	}));
	return results;
}
