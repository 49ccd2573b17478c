/**
 * One setting as each configuration scope holds it (VS Code's `inspect()`): the user's own
 * value (user or machine settings) and the values an opened folder brings (the workspace file
 * and each folder's `.vscode/settings.json`). Undefined where a scope does not set it.
 */
export interface SettingLayers<T> {
	readonly user?: T;
	readonly workspace?: T;
	readonly folders?: readonly (T | undefined)[];
}

/** The file rules' settings by scope, as the adapter read them. */
export interface FileSettingLayers {
	/** `files.exclude` objects (pattern -> true / false / `{ when }`). */
	readonly filesExclude: SettingLayers<unknown>;
	readonly exclude: SettingLayers<unknown>;
	readonly secrets: SettingLayers<unknown>;
	readonly respectGitignore: SettingLayers<unknown>;
	readonly maxFileSize: SettingLayers<unknown>;
	/** Used when the user sets no valid size. */
	readonly defaultMaxFileSize: number;
}

export interface MergedFileSettings {
	readonly exclude: readonly string[];
	readonly secrets: readonly string[];
	readonly respectGitignore: boolean;
	readonly maxFileSize: number;
	/** Folder or workspace values that would have served more, and were not applied. */
	readonly refused: readonly string[];
}

/**
 * Merges the file rules so that what a folder brings can only hide more: a cloned repository
 * is not the user, and its `.vscode/settings.json` must not serve the user's `.env` to every AI
 * client. The user's own values always apply (an array from a folder would otherwise replace
 * them); a folder adds exclude and secret patterns but its negations are dropped; only the user
 * turns `.gitignore` off; a folder may lower the size cap, never raise it.
 */
export function mergeFileSettings(layers: FileSettingLayers): MergedFileSettings {
	const refused: string[] = [];
	const folderScopes = <T>(l: SettingLayers<T>) => [l.workspace, ...(l.folders ?? [])];

	const secrets = [...strings(layers.secrets.user)];
	for (const value of folderScopes(layers.secrets)) {
		for (const pattern of strings(value)) {
			if (pattern.trim().startsWith('!')) {
				refused.push(`mcpResources.secrets "${pattern}"`);
			} else {
				secrets.push(pattern);
			}
		}
	}

	// Exclude patterns only ever add (any match hides), so every scope's list is kept.
	const exclude = new Set<string>();
	for (const value of [layers.filesExclude.user, ...folderScopes(layers.filesExclude)]) {
		for (const pattern of excludedKeys(value)) {
			exclude.add(pattern);
		}
	}
	for (const value of [layers.exclude.user, ...folderScopes(layers.exclude)]) {
		for (const pattern of strings(value)) {
			exclude.add(pattern);
		}
	}

	let respectGitignore = layers.respectGitignore.user !== false;
	for (const value of folderScopes(layers.respectGitignore)) {
		if (value === true) {
			respectGitignore = true;
		} else if (value === false && layers.respectGitignore.user !== false) {
			refused.push('mcpResources.respectGitignore false');
		}
	}

	const userMax = positive(layers.maxFileSize.user) ?? layers.defaultMaxFileSize;
	let maxFileSize = userMax;
	for (const value of folderScopes(layers.maxFileSize)) {
		const size = positive(value);
		if (size !== undefined && size < maxFileSize) {
			maxFileSize = size;
		} else if (size !== undefined && size > userMax) {
			refused.push(`mcpResources.maxFileSize ${size}`);
		}
	}

	return { exclude: [...exclude], secrets, respectGitignore, maxFileSize, refused: [...new Set(refused)] };
}

function strings(value: unknown): string[] {
	return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];
}

/** `files.exclude` keys that exclude: `true`, and `{ when }` conditions (treated as excluded to be safe). */
function excludedKeys(value: unknown): string[] {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return [];
	}
	return Object.entries(value).filter(([, v]) => v === true || (typeof v === 'object' && v !== null)).map(([k]) => k);
}

function positive(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}
