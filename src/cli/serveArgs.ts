import { accessSync, constants, statSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { LogLevel } from '../common/logger';
import { DEFAULT_MAX_FILE_SIZE } from '../core/ports';
import { defaultSearchCacheDir } from '../node/searchCacheDir';
import { UsageError } from './usage';

/** `serve`'s options, checked. */
export interface ServeArgs {
	roots: string[];
	mode: 'stdio' | 'http';
	port: number;
	exclude: string[];
	secrets: string[];
	respectGitignore: boolean;
	maxFileSize: number;
	logLevel: LogLevel;
	/** Offer the read-only tools (`--no-tools` turns them off). */
	tools: boolean;
	/** Where the search index is kept between runs (`--cache-dir`; undefined with `--no-cache`). */
	searchCacheDir: string | undefined;
}

function parseInteger(value: string, name: string, min: number, max: number): number {
	if (!/^\d+$/.test(value)) {
		throw new UsageError(`${name} must be a whole number, got "${value}"`);
	}
	const n = Number(value);
	if (n < min || n > max) {
		throw new UsageError(`${name} must be between ${min} and ${max}`);
	}
	return n;
}

export function parseServeArgs(args: string[]): ServeArgs {
	let parsed;
	try {
		parsed = parseArgs({
			args,
			strict: true,
			allowPositionals: false,
			options: {
				root: { type: 'string', multiple: true },
				stdio: { type: 'boolean' },
				http: { type: 'boolean' },
				port: { type: 'string' },
				exclude: { type: 'string', multiple: true },
				secret: { type: 'string', multiple: true },
				'no-gitignore': { type: 'boolean' },
				'max-file-size': { type: 'string' },
				'log-level': { type: 'string' },
				'no-tools': { type: 'boolean' },
				'cache-dir': { type: 'string' },
				'no-cache': { type: 'boolean' },
			},
		});
	} catch (err) {
		throw new UsageError((err as Error).message);
	}
	const v = parsed.values;
	const roots = v.root ?? [];
	if (roots.length === 0) {
		throw new UsageError('at least one --root DIR is required');
	}
	for (const root of roots) {
		let isDir = false;
		try {
			isDir = statSync(root).isDirectory();
		} catch {
			// reported below
		}
		if (!isDir) {
			throw new UsageError(`--root ${root}: not a directory`);
		}
		try {
			// A folder we cannot list would be served as an empty workspace, without a word.
			accessSync(root, constants.R_OK | constants.X_OK);
		} catch (err) {
			throw new UsageError(`--root ${root}: not readable (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
		}
	}
	if (!!v.stdio === !!v.http) {
		throw new UsageError('choose exactly one of --stdio and --http');
	}
	if (v.port !== undefined && !v.http) {
		throw new UsageError('--port needs --http');
	}
	if (v['cache-dir'] !== undefined && v['no-cache']) {
		throw new UsageError('choose at most one of --cache-dir and --no-cache');
	}
	if (v['cache-dir'] === '') {
		throw new UsageError('--cache-dir needs a directory');
	}
	const logLevel = parseLogLevel(v['log-level']);
	return {
		roots,
		mode: v.stdio ? 'stdio' : 'http',
		port: v.port === undefined ? 0 : parseInteger(v.port, '--port', 0, 65535),
		exclude: v.exclude ?? [],
		secrets: v.secret ?? [],
		respectGitignore: !v['no-gitignore'],
		maxFileSize: v['max-file-size'] === undefined ? DEFAULT_MAX_FILE_SIZE : parseInteger(v['max-file-size'], '--max-file-size', 1, Number.MAX_SAFE_INTEGER),
		logLevel,
		tools: !v['no-tools'],
		searchCacheDir: v['no-cache'] ? undefined : v['cache-dir'] !== undefined ? path.resolve(v['cache-dir']) : defaultSearchCacheDir(roots),
	};
}

/** `--log-level`, `info` when absent. */
export function parseLogLevel(value: string | undefined): LogLevel {
	const level = value ?? 'info';
	if (!isLogLevel(level)) {
		throw new UsageError('--log-level must be debug, info, warn or error');
	}
	return level;
}

function isLogLevel(value: string): value is LogLevel {
	return ['debug', 'info', 'warn', 'error'].includes(value);
}
