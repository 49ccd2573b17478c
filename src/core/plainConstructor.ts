/**
 * A constructor for objects made by the thousand on a listing's path (page entries), whose
 * objects are plain: their prototype is Object's, as a literal's is, so JSON, deep comparisons
 * and clients see no difference. Why not a literal: V8 counts the objects each literal makes
 * (its allocation site) and, when a young collection finds nearly all of one site's objects still
 * alive, makes every later object of that site in the old generation directly. A collection that
 * fell while the first page's entries were waiting to be sent decided that now and then; from then
 * on every listed entry was old-generation garbage, and at a million files the process grew
 * large before a full collection. Objects made with `new` are never placed that way.
 */
export function plainConstructor<A extends unknown[], T extends object>(init: (this: Record<string, unknown>, ...args: A) => void): new (...args: A) => T {
	init.prototype = Object.prototype;
	return init as unknown as new (...args: A) => T;
}
