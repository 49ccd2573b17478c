#!/usr/bin/env node
// `npm run docs:settings`: rewrites the README's settings table (between its markers) from
// package.json's settings. Edit the descriptions in package.json, then run this.
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import { failureText } from '../lib/errorText.js';
import { settingsTable, withSettingsTable, type ConfigurationManifest } from './settingsTable.js';

const readmeFile = path.join(repoRoot, 'README.md');
try {
	const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as ConfigurationManifest;
	const readme = readFileSync(readmeFile, 'utf8');
	const updated = withSettingsTable(readme, settingsTable(manifest));
	if (updated === readme) {
		console.log('[docs:settings] README.md\'s settings table is current');
	} else {
		writeFileSync(readmeFile, updated);
		console.log(`[docs:settings] wrote ${Object.keys(manifest.contributes.configuration.properties).length} settings into README.md`);
	}
} catch (err) {
	console.error(`[docs:settings] FAILED: ${failureText(err)}`);
	process.exitCode = 1;
}
