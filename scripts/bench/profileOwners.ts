// Whose code took a CPU profile's sample, from the scripts on its stack: the extension host runs
// every extension and VS Code's own code on one thread, and a minified bundle's function names
// alone cannot tell ours from theirs (each extension's bundle is an "extension.js").

/** The parts of a V8 profile node the owner is read from. */
export interface OwnedFrame {
	readonly callFrame: { readonly functionName: string; readonly url: string };
}

/**
 * The owner of one script: "ours" (this extension's bundles, the walk's worker, the headless
 * CLI), "ext:<folder>" (another extension, by its folder under extensions/), "vscode" (the
 * extension host's own code, including VS Code's node_modules such as its proxy agent), or
 * undefined (Node's internals, native code: those belong to whoever called them).
 */
export function scriptOwner(url: string): string | undefined {
	if (/mcp-workspace-resources/.test(url)) return 'ours';
	// The headless CLI run from a checkout. Extensions live under extensions/ (VS Code's git has a dist/main.js too).
	if (!/\/extensions\//.test(url) && /\/dist\/(cli|main|walkWorker|claudeTokenizer)\.js$/.test(url)) return 'ours';
	const extension = /\/extensions\/([^/]+)\//.exec(url);
	if (extension) return `ext:${extension[1]}`;
	if (/extensionHostProcess|\/lib\/vscode\/|bootstrap-fork/.test(url)) return 'vscode';
	return undefined;
}

/**
 * The owner of a sample, given its stack leaf first: the nearest extension on the stack (ours or
 * another's; VS Code's code called by an extension is that extension's doing), else VS Code when
 * its code is on the stack, else "gc", "program" or "node:<leaf function>" (a callback whose
 * caller the profile no longer shows, such as an I/O completion).
 */
export function sampleOwner(stack: readonly OwnedFrame[]): string {
	let vscode = false;
	for (const frame of stack) {
		const owner = scriptOwner(frame.callFrame.url);
		if (owner === 'vscode') vscode = true;
		else if (owner) return owner;
	}
	if (vscode) return 'vscode';
	const leaf = stack[0]?.callFrame.functionName ?? '';
	if (leaf === '(garbage collector)') return 'gc';
	if (leaf === '(program)') return 'program';
	return `node:${leaf || '(anonymous)'}`;
}
