// The README's settings table, generated from package.json's `contributes.configuration` so the
// two cannot drift. `npm run docs:settings` (scripts/build/updateReadmeSettings.ts) writes it
// between the README's markers; test/unit/scripts/settingsTable.test.ts checks it is current.

/** What the table reads of one setting in package.json. */
export interface SettingSchema {
	default?: unknown;
	description?: string;
	markdownDescription?: string;
	enum?: readonly unknown[];
}

/** The part of package.json the table is made from. */
export interface ConfigurationManifest {
	contributes: { configuration: { properties: Record<string, SettingSchema> } };
}

export const SETTINGS_START = '<!-- settings:start -->';
export const SETTINGS_END = '<!-- settings:end -->';

/** A table cell: one line, pipes escaped (also inside code spans, as GitHub's tables need). */
function cell(text: string): string {
	return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').trim();
}

/**
 * A setting's description as Markdown: the markdownDescription when there is one (VS Code's
 * `#setting.id#` links become the setting's name), else the plain description; an enum's values
 * are named after it.
 */
function describe(schema: SettingSchema): string {
	const text = schema.markdownDescription?.replace(/#([\w.-]+)#/g, '$1') ?? schema.description ?? '';
	const values = schema.enum ? ` One of ${schema.enum.map(v => `\`${String(v)}\``).join(', ')}.` : '';
	return text + values;
}

/** A default as the user would type it: strings bare, anything else as JSON. */
function defaultValue(value: unknown): string {
	if (value === undefined) {
		return '';
	}
	return `\`${typeof value === 'string' && value !== '' ? value : JSON.stringify(value)}\``;
}

/** The Markdown table of every setting, in package.json's order: setting, default, description. */
export function settingsTable(manifest: ConfigurationManifest): string {
	const rows = Object.entries(manifest.contributes.configuration.properties)
		.map(([id, schema]) => `| \`${id}\` | ${cell(defaultValue(schema.default))} | ${cell(describe(schema))} |`);
	return ['| Setting | Default | Description |', '|---|---|---|', ...rows].join('\n');
}

/** Thrown when the README has no place for the table; the message says what to do. */
export class MissingSettingsMarkers extends Error {}

/** The table the README holds between its markers, or undefined when it has no markers. */
export function readmeSettingsTable(readme: string): string | undefined {
	const start = readme.indexOf(SETTINGS_START);
	const end = readme.indexOf(SETTINGS_END, start);
	return start === -1 || end === -1 ? undefined : readme.slice(start + SETTINGS_START.length, end).trim();
}

/** `readme` with `table` between its markers, everything else as it was. */
export function withSettingsTable(readme: string, table: string): string {
	const start = readme.indexOf(SETTINGS_START);
	const end = readme.indexOf(SETTINGS_END, start);
	if (start === -1 || end === -1) {
		throw new MissingSettingsMarkers(`README.md has no ${SETTINGS_START} ... ${SETTINGS_END} markers: put them where the settings table goes, then run npm run docs:settings.`);
	}
	return `${readme.slice(0, start + SETTINGS_START.length)}\n${table}\n${readme.slice(end)}`;
}
