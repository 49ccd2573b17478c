// Debian chromium, headless, driven by playwright-core from the private environment.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromiumPath, loadPlaywright } from './vscodeEnv.js';

/** Flags that keep chromium off this machine's closed network and quiet. */
export const CHROMIUM_ARGS = Object.freeze([
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--disable-dev-shm-usage',
]);

/**
 * Launches chromium. Its profile and temp files stay in a private directory removed by `close()`.
 */
export async function launchBrowser({ headless = true }: { headless?: boolean } = {}): Promise<{ browser: Browser; close(): Promise<void> }> {
	const executablePath = chromiumPath();
	if (!executablePath) { throw new Error('chromium not found: run `npm run provision`'); }
	const { chromium } = loadPlaywright();
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwr-chromium-'));
	const browser = await chromium.launch({
		executablePath,
		headless,
		args: [...CHROMIUM_ARGS],
		env: { ...process.env, HOME: dir, TMPDIR: dir, XDG_CONFIG_HOME: dir, XDG_CACHE_HOME: dir },
		timeout: 60_000,
		// The runners handle signals themselves (stop everything, remove temp dirs); Playwright's
		// own handlers would exit the process first.
		handleSIGINT: false,
		handleSIGTERM: false,
		handleSIGHUP: false,
	});
	let closing: Promise<void> | undefined;
	return {
		browser,
		close() {
			return closing ??= (async () => {
				await browser.close().catch(() => { /* already gone */ });
				fs.rmSync(dir, { recursive: true, force: true });
			})();
		},
	};
}

/** A page whose console errors and crashes are reported, sized like a small laptop screen. */
export async function newWorkbenchPage(browser: Browser, { origin, clipboard = false }: { origin?: string; clipboard?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
	const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
	if (clipboard && origin) {
		await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
	}
	const page = await context.newPage();
	page.on('crash', () => console.error('[browser] page crashed'));
	return { context, page };
}
