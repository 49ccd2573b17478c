import * as assert from 'node:assert/strict';
import { FileSettingLayers, mergeFileSettings } from '../../../src/core/files/settingLayers';

const DEFAULT_MAX = 1024 * 1024;

function layers(patch: Partial<FileSettingLayers>): FileSettingLayers {
	return {
		filesExclude: {}, exclude: {}, secrets: {}, respectGitignore: { user: true }, maxFileSize: {},
		defaultMaxFileSize: DEFAULT_MAX, ...patch,
	};
}

describe('mergeFileSettings: folder settings only tighten', () => {
	it('keeps the user secrets when a folder sets its own list (no replacement)', () => {
		const merged = mergeFileSettings(layers({ secrets: { user: ['*.token'], workspace: ['*.vault'], folders: [['private/']] } }));
		assert.deepEqual(merged.secrets, ['*.token', '*.vault', 'private/']);
		assert.deepEqual(merged.refused, []);
	});

	it('drops negations that come from the workspace or a folder, and says so', () => {
		const merged = mergeFileSettings(layers({ secrets: { workspace: ['!.env', ' !*.pem', 'x.key'], folders: [['!id_rsa'], undefined] } }));
		assert.deepEqual(merged.secrets, ['x.key']);
		assert.deepEqual(merged.refused, ['mcpResources.secrets "!.env"', 'mcpResources.secrets " !*.pem"', 'mcpResources.secrets "!id_rsa"']);
	});

	it('honours a negation from the user, before anything a folder adds', () => {
		const merged = mergeFileSettings(layers({ secrets: { user: ['!.env.example'], workspace: ['.env.*'] } }));
		assert.deepEqual(merged.secrets, ['!.env.example', '.env.*'], 'a folder pattern after the negation can hide it again');
	});

	it('unions excludes from every scope, files.exclude keys included', () => {
		const merged = mergeFileSettings(layers({
			exclude: { user: ['build'], workspace: ['dist'], folders: [['out'], ['build']] },
			filesExclude: { user: { '**/.git': true, tmp: true }, workspace: { tmp: false, logs: true }, folders: [{ cache: { when: '$(basename).ts' } }] },
		}));
		assert.deepEqual([...merged.exclude].sort(), ['**/.git', 'build', 'cache', 'dist', 'logs', 'out', 'tmp'],
			'a folder cannot switch off the user\'s files.exclude entry with false');
	});

	it('lets only the user turn .gitignore off', () => {
		const fromFolder = mergeFileSettings(layers({ respectGitignore: { user: true, workspace: false, folders: [false] } }));
		assert.equal(fromFolder.respectGitignore, true);
		assert.deepEqual(fromFolder.refused, ['mcpResources.respectGitignore false']);
		assert.equal(mergeFileSettings(layers({ respectGitignore: {} })).respectGitignore, true, 'on by default');
		assert.equal(mergeFileSettings(layers({ respectGitignore: { user: false } })).respectGitignore, false);
		assert.equal(mergeFileSettings(layers({ respectGitignore: { user: false, folders: [true] } })).respectGitignore, true, 'a folder may turn it on');
	});

	it('lets a folder lower the size cap, never raise it', () => {
		assert.equal(mergeFileSettings(layers({ maxFileSize: {} })).maxFileSize, DEFAULT_MAX);
		assert.equal(mergeFileSettings(layers({ maxFileSize: { user: 4096, workspace: 2048 } })).maxFileSize, 2048);
		const raised = mergeFileSettings(layers({ maxFileSize: { user: 4096, folders: [1e9] } }));
		assert.equal(raised.maxFileSize, 4096);
		assert.deepEqual(raised.refused, ['mcpResources.maxFileSize 1000000000']);
		assert.equal(mergeFileSettings(layers({ maxFileSize: { user: 5e6 } })).maxFileSize, 5e6, 'the user may raise it');
	});

	it('ignores values of the wrong type instead of failing', () => {
		const merged = mergeFileSettings(layers({
			secrets: { user: 'not-a-list', workspace: [1, null, '*.x'] }, exclude: { folders: [{}] },
			filesExclude: { workspace: ['a'] }, respectGitignore: { user: 'no' }, maxFileSize: { user: -1, workspace: 'big' },
		}));
		assert.deepEqual(merged.secrets, ['*.x']);
		assert.deepEqual(merged.exclude, []);
		assert.equal(merged.respectGitignore, true);
		assert.equal(merged.maxFileSize, DEFAULT_MAX);
	});
});
