/**
 * `base`, or the first of `base-2`, `base-3`, ... that `taken` does not hold, which is then added
 * to it: names shown for folders and repositories stay unique even when a suffixed name is
 * itself some folder's own name (`proj`, `proj`, `proj-2`).
 */
export function unusedName(base: string, taken: Set<string>): string {
	let name = base;
	for (let n = 2; taken.has(name); n++) {
		name = `${base}-${n}`;
	}
	taken.add(name);
	return name;
}
