/** `bigger` with the contents of `old` at its start. */
export function growArray<T extends Uint32Array | Float64Array>(old: T, bigger: T): T {
	bigger.set(old);
	return bigger;
}
