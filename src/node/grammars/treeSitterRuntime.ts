// The tree-sitter runtime (web-tree-sitter), bundled apart as dist/treeSitterRuntime.js and required
// on the first parse: hosts that never parse never load it.
import { Language, Parser, Query } from 'web-tree-sitter';

export { Language, Parser, Query };

/** Starts the runtime with its WASM file at `wasmPath` (never looked up next to the bundle). */
export async function initRuntime(wasmPath: string): Promise<void> {
	await Parser.init({ locateFile: () => wasmPath });
}
