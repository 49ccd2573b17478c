import { Emitter } from '../../src/common/event';
import { FileSettings, SettingsSource } from '../../src/core/ports';

export const defaultFileSettings: FileSettings = {
	exclude: [],
	secrets: [],
	respectGitignore: true,
	maxFileSize: 1024 * 1024,
	maxFileSizeSetting: 'mcpResources.maxFileSize',
};

export class FakeSettings implements SettingsSource<FileSettings> {
	private readonly emitter = new Emitter<void>();
	readonly onDidChange = this.emitter.event;
	constructor(private value: FileSettings = defaultFileSettings) {}
	get(): FileSettings {
		return this.value;
	}
	set(patch: Partial<FileSettings>): void {
		this.value = { ...this.value, ...patch };
		this.emitter.fire();
	}
}
