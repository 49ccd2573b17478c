import { FileStore } from './fileStore';

type Pause = () => Promise<void> | undefined;

/**
 * The symmetric difference of two stores' files, as URIs: what a rebuild added or dropped. One
 * merge of the two URI orders.
 */
export async function storeDifference(a: FileStore, b: FileStore, pause: Pause): Promise<string[]> {
	const out: string[] = [];
	let i = 0;
	let j = 0;
	let aUri = i < a.committedLength ? a.uriOf(a.slotAt(i)) : undefined;
	let bUri = j < b.committedLength ? b.uriOf(b.slotAt(j)) : undefined;
	while (aUri !== undefined || bUri !== undefined) {
		const wait = pause();
		if (wait) {
			await wait;
		}
		if (bUri === undefined || (aUri !== undefined && aUri < bUri)) {
			out.push(aUri!);
			aUri = ++i < a.committedLength ? a.uriOf(a.slotAt(i)) : undefined;
		} else if (aUri === undefined || bUri < aUri) {
			out.push(bUri);
			bUri = ++j < b.committedLength ? b.uriOf(b.slotAt(j)) : undefined;
		} else {
			aUri = ++i < a.committedLength ? a.uriOf(a.slotAt(i)) : undefined;
			bUri = ++j < b.committedLength ? b.uriOf(b.slotAt(j)) : undefined;
		}
	}
	return out;
}

/**
 * Files for completion: those whose URI starts with `prefixUri` (one run of the order, found
 * by binary search), then those whose name contains `lowerQuery` elsewhere. At most `limit`
 * file numbers; `total` counts them all.
 */
export async function completeFiles(store: FileStore, prefixUri: string, lowerQuery: string, limit: number, pause: Pause): Promise<{ slots: number[]; total: number }> {
	const length = store.committedLength;
	const slots: number[] = [];
	if (!lowerQuery) {
		for (let i = 0; i < Math.min(limit, length); i++) {
			slots.push(store.slotAt(i));
		}
		return { slots, total: length };
	}
	const start = store.search(prefixUri, false);
	let end = start;
	while (end < length && store.uriOf(store.slotAt(end)).startsWith(prefixUri)) {
		if (slots.length < limit) {
			slots.push(store.slotAt(end));
		}
		end++;
		if ((end & 0x3ff) === 0) {
			await pause();
		}
	}
	let total = end - start;
	// A query without `/` cannot span a directory's display path and the name (the path ends
	// in `/`), so each directory is tested once and each name on its own.
	const perDirectory = !lowerQuery.includes('/');
	// By display prefix, not directory number: a batch applied in one of the pauses may release
	// a directory and give its number to another.
	const dirMatches = new Map<string, boolean>();
	for (let i = 0; i < length; i++) {
		if (i === start && end > start) {
			i = end - 1; // the prefix run, counted above
			continue;
		}
		if ((i & 0x3fff) === 0) {
			const wait = pause();
			if (wait) {
				await wait;
			}
		}
		const slot = store.slotAt(i);
		let match: boolean;
		if (perDirectory) {
			const prefix = store.displayPrefixOf(slot);
			let dirMatch = dirMatches.get(prefix);
			if (dirMatch === undefined) {
				dirMatch = prefix.toLowerCase().includes(lowerQuery);
				dirMatches.set(prefix, dirMatch);
			}
			match = dirMatch || store.nameOf(slot).toLowerCase().includes(lowerQuery);
		} else {
			match = store.displayName(slot).toLowerCase().includes(lowerQuery);
		}
		if (match) {
			if (slots.length < limit) {
				slots.push(slot);
			}
			total++;
		}
	}
	return { slots, total };
}
