/**
 * `text` less every `char` at its end: `withoutTrailing(message, '\n')`. Not `/\n+$/`: a regular
 * expression tries that from each character of a long run that does not reach the end, reading
 * the rest of the run every time (quadratic), and commit messages, settings and the like can
 * hold runs as long as their authors like.
 */
export function withoutTrailing(text: string, char: string): string {
	let end = text.length;
	while (end > 0 && text[end - 1] === char) {
		end--;
	}
	return text.slice(0, end);
}
