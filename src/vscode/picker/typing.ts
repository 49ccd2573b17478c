import * as vscode from 'vscode';

/**
 * Keystrokes of a burst reach the extension host together ("e", "en", "ent"… a few ms apart);
 * searching 100,000 names for each of them held the host. So a query box acts once, on the
 * last value of a burst.
 */
const TYPING_BURST_MS = 30;

/** Calls `run` with the box's value once typing pauses; `flush()` runs a pending call now. */
export function onTypingSettled(box: Pick<vscode.InputBox, 'value' | 'onDidChangeValue'>, run: (value: string) => void): vscode.Disposable & { flush(): void } {
	let timer: NodeJS.Timeout | undefined;
	const listener = box.onDidChangeValue(() => {
		clearTimeout(timer);
		timer = setTimeout(() => {
			timer = undefined;
			run(box.value);
		}, TYPING_BURST_MS);
	});
	return {
		flush: () => {
			if (timer) {
				clearTimeout(timer);
				timer = undefined;
				run(box.value);
			}
		},
		dispose: () => {
			clearTimeout(timer);
			listener.dispose();
		},
	};
}
