import * as path from 'node:path';
import { FileSystemReader, GitUserConfig } from '../ports';
import { readRuleFileText } from './ruleFileText';

/**
 * The path of git's user-level excludes file (`core.excludesFile` from the system and global
 * config files, in git's order, the last value winning; git's default when none sets it), or
 * undefined when its value cannot be resolved here (`~user/`). A repository's own
 * `.git/config` is not read: a folder's value would replace the user's, and a folder's settings
 * may only hide more.
 */
export async function userExcludesFile(reader: FileSystemReader, config: GitUserConfig, repositoryTop: string): Promise<string | undefined> {
	let value: string | undefined;
	for (const file of config.configFiles) {
		const text = await readRuleFileText(reader, file);
		value = (text === null ? undefined : excludesFileIn(text)) ?? value;
	}
	if (value === undefined || value === '') {
		return config.defaultExcludesFile;
	}
	if (value === '~' || value.startsWith('~/')) {
		return path.join(config.home, value.slice(1));
	}
	if (value.startsWith('~')) {
		return undefined;
	}
	// A relative value is relative to where git runs: the top of the work tree.
	return path.resolve(repositoryTop, value);
}

/**
 * The last `core.excludesFile` value in one git config file's text (keys and section names are
 * case-insensitive; values may be double-quoted, with `\` escapes; `#` and `;` start comments
 * outside quotes), or undefined when the file sets none.
 */
export function excludesFileIn(text: string): string | undefined {
	let inCore = false;
	let value: string | undefined;
	for (const line of text.split(/\r?\n/)) {
		const section = /^\s*\[([^\]]*)\]/.exec(line);
		if (section) {
			inCore = section[1].trim().toLowerCase() === 'core';
			continue;
		}
		const entry = inCore ? /^\s*excludesfile\s*=(.*)$/i.exec(line) : null;
		if (entry) {
			value = configValue(entry[1]);
		}
	}
	return value;
}

/** The escapes git reads in a value besides `\\` and `\"` (which stand for themselves). */
const ESCAPES = new Map([['n', '\n'], ['t', '\t'], ['b', '\b']]);

/** A config value as git reads it: quotes removed, escapes applied, comments and outer spaces dropped. */
function configValue(raw: string): string {
	let out = '';
	let quoted = false;
	let pendingSpace = '';
	for (let i = 0; i < raw.length; i++) {
		const c = raw[i];
		if (c === '\\' && i + 1 < raw.length) {
			const next = raw[++i];
			out += pendingSpace + (ESCAPES.get(next) ?? next);
			pendingSpace = '';
		} else if (c === '"') {
			quoted = !quoted;
		} else if (!quoted && (c === '#' || c === ';')) {
			break;
		} else if (!quoted && (c === ' ' || c === '\t')) {
			if (out !== '') {
				pendingSpace += c;
			}
		} else {
			out += pendingSpace + c;
			pendingSpace = '';
		}
	}
	return out;
}
