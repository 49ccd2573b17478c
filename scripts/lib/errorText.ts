/** How a runner prints a failure: an Error's stack (or message), anything else as a string. */
export function errorText(err: unknown): string {
	return err instanceof Error ? err.stack ?? err.message : String(err);
}
