// The part of the WebAssembly global the 4-gram signer uses (src/core/search/quadgramSigner.ts).
// Node has the global; its types come with the DOM library, which src/ does not load.
declare namespace WebAssembly {
	class Module {
		constructor(bytes: Uint8Array);
	}
	class Instance {
		constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
		readonly exports: Record<string, unknown>;
	}
	class Memory {
		readonly buffer: ArrayBuffer;
	}
}
