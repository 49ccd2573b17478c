/** How a runner prints a failure: an Error's stack (or message), anything else as a string. */
export function errorText(err: unknown): string {
	return err instanceof Error ? err.stack ?? err.message : String(err);
}

/**
 * How a command a person runs (`npm start`, `npm run provision`) prints its failure: the message
 * alone, which for the failures it expects says what to do; a stack trace would bury that line.
 */
export function failureText(err: unknown): string {
	return err instanceof Error ? err.message : String(err);
}
