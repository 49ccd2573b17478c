import * as path from 'node:path';

/**
 * "Is this path inside that folder", asked of absolute paths by name: nothing is resolved on
 * disk (callers that must not be fooled by symlinks resolve first). Compared with
 * `path.relative`, so `/a/bc` is not inside `/a/b`, `..` segments are normalised away, and on
 * Windows separators and drive-letter case follow the platform's rules. `paths` is the
 * platform's path module; tests pass `path.win32` or `path.posix`.
 */
export function isInsideFolder(folder: string, candidate: string, paths: path.PlatformPath = path): boolean {
	return relativeWithin(folder, candidate, paths) !== undefined;
}

/** The '/'-separated path of `absPath` under `root`, or undefined when it is `root` itself or outside it. */
export function relativeInside(root: string, absPath: string, paths: path.PlatformPath = path): string | undefined {
	const rel = relativeWithin(root, absPath, paths);
	return rel === undefined || rel === '' ? undefined : rel.split(paths.sep).join('/');
}

/** `path.relative` when `candidate` is `folder` ('') or under it, else undefined. */
function relativeWithin(folder: string, candidate: string, paths: path.PlatformPath): string | undefined {
	const rel = paths.relative(folder, candidate);
	if (rel === '..' || rel.startsWith('..' + paths.sep) || paths.isAbsolute(rel)) {
		return undefined;
	}
	return rel;
}
