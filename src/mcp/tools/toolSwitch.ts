import { Event } from '../../common/event';
import { IDisposable, nothingToDispose } from '../../common/lifecycle';
import { SettingsSource } from '../../core/ports';

/**
 * Whether the server offers its tools now: `mcpResources.tools.enabled` in the editor (a folder
 * can only turn it off), `serve --no-tools` headless. Without one, tools are on.
 */
export type ToolSwitch = SettingsSource<boolean>;

/** A switch that never changes: the headless host's, set on its command line. */
export function fixedToolSwitch(on: boolean): ToolSwitch {
	return { get: () => on, onDidChange: Event.None };
}

/** Whether tools are on now under `tools` (on when there is no switch). */
export function toolsOn(tools: ToolSwitch | undefined): boolean {
	return tools?.get() ?? true;
}

/**
 * Calls `announce` each time the switch really turns (on to off or back): a settings change
 * event fires for any scope's edit of the key, most of which leave the answer as it was, and a
 * client told the list changed would list it again for nothing.
 */
export function onDidTurnTools(tools: ToolSwitch | undefined, announce: () => void): IDisposable {
	if (!tools) {
		return nothingToDispose;
	}
	let on = tools.get();
	return tools.onDidChange(() => {
		const now = tools.get();
		if (now !== on) {
			on = now;
			announce();
		}
	});
}
