import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

type Properties = Record<string, { default?: unknown; description?: string; markdownDescription?: string; enum?: readonly unknown[] }>;
interface SettingsTableModule {
	SETTINGS_START: string;
	SETTINGS_END: string;
	settingsTable(manifest: { contributes: { configuration: { properties: Properties } } }): string;
	readmeSettingsTable(readme: string): string | undefined;
	withSettingsTable(readme: string, table: string): string;
}

const root = path.join(__dirname, '../../../..');
async function loadScript<T>(relative: string): Promise<T> {
	register(pathToFileURL(path.join(root, 'scripts', 'bootstrap', 'typescriptHooks.mjs')).href);
	return await import(pathToFileURL(path.join(root, 'scripts', relative)).href) as T;
}

const manifestOf = (properties: Properties) => ({ contributes: { configuration: { properties } } });

// scripts/build/settingsTable.ts: the README's settings table comes from package.json, so a
// setting added, renamed or reworded there cannot leave the README behind.
describe('scripts: the README\'s settings table', () => {
	let table: SettingsTableModule;
	before(async () => {
		table = await loadScript<SettingsTableModule>('build/settingsTable.ts');
	});

	it('is the one package.json gives (else run npm run docs:settings)', () => {
		const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Parameters<SettingsTableModule['settingsTable']>[0];
		const inReadme = table.readmeSettingsTable(readFileSync(path.join(root, 'README.md'), 'utf8'));
		assert.ok(inReadme !== undefined, `README.md has no ${table.SETTINGS_START} ... ${table.SETTINGS_END} markers: put them in its Settings section and run npm run docs:settings`);
		assert.equal(inReadme, table.settingsTable(manifest), 'README.md\'s settings table is not package.json\'s: run npm run docs:settings');
		assert.equal(inReadme.split('\n').length, 2 + Object.keys(manifest.contributes.configuration.properties).length, 'one row per setting');
	});

	it('has a row per setting in package.json\'s order: its name, its default as typed, its description', () => {
		assert.equal(table.settingsTable(manifestOf({
			'x.on': { default: true, description: 'Plain text.' },
			'x.target': { default: 'chat', enum: ['chat', 'editor'], description: 'Where it goes.' },
			'x.list': { default: [], markdownDescription: 'Preferred over the plain one; like `#files.exclude#`.', description: 'Not shown.' },
			'x.none': { description: 'No default.' },
		})), [
			'| Setting | Default | Description |',
			'|---|---|---|',
			'| `x.on` | `true` | Plain text. |',
			'| `x.target` | `chat` | Where it goes. One of `chat`, `editor`. |',
			'| `x.list` | `[]` | Preferred over the plain one; like `files.exclude`. |',
			'| `x.none` |  | No default. |',
		].join('\n'));
	});

	it('keeps each row one line and its pipes inside the cell', () => {
		const row = table.settingsTable(manifestOf({ 'x.glob': { default: '', markdownDescription: 'Either `a|b`\nor c.' } })).split('\n')[2];
		assert.equal(row, '| `x.glob` | `""` | Either `a\\|b` or c. |');
	});

	it('rewrites only what is between the markers, and says what to do when there are none', () => {
		const readme = `# Title\n\n## Settings\n\n${table.SETTINGS_START}\nold table\n${table.SETTINGS_END}\n\nAfter.\n`;
		assert.equal(table.withSettingsTable(readme, '| new |'), `# Title\n\n## Settings\n\n${table.SETTINGS_START}\n| new |\n${table.SETTINGS_END}\n\nAfter.\n`);
		assert.equal(table.readmeSettingsTable(table.withSettingsTable(readme, '| new |')), '| new |');
		assert.throws(() => table.withSettingsTable('# No markers\n', '| new |'), /put them where the settings table goes, then run npm run docs:settings/);
		assert.equal(table.readmeSettingsTable('# No markers\n'), undefined);
	});
});
