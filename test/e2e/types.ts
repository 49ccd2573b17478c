// What the e2e runner (scripts/run/e2e.ts) hands its checks.
import type { Page } from 'playwright-core';
import type { CodeServer, CodeServerOptions } from '../../scripts/lib/codeServer.js';

/** The extension's lock file: where its server listens, and the token it takes. */
export interface LockFile {
	url: string;
	token: string;
}

/** The main window's checks run in order against one workbench page. */
export interface E2EContext {
	page: Page;
	/** The one lock file of the window's extension (waits for it). */
	lock(): Promise<LockFile>;
	screenshot(name: string): Promise<void>;
	workspaceDir: string;
}

export interface E2ECheck {
	name: string;
	run(ctx: E2EContext): Promise<void>;
}

/** A fresh code-server window for a check that needs other settings. */
export interface SecondWindow {
	page: Page;
	mcpHome: { dir: string };
	server: CodeServer;
	workspaceDir: string;
}

/**
 * code-server options for a second window; `prepare(workspaceDir)` changes the workspace before it
 * opens; `emptyWindow` opens the workbench with no folder at all.
 */
export type SecondWindowOptions = Partial<Omit<CodeServerOptions, 'workspace'>> & { prepare?(workspaceDir: string): void; emptyWindow?: boolean };

export type OpenWindow = (options: SecondWindowOptions, body: (window: SecondWindow) => Promise<void>) => Promise<void>;

/** What a check in a window of its own gets: the page, and a screenshot by name. */
export interface WindowCheckContext {
	page: Page;
	screenshot(name: string): Promise<void>;
}

/** A check that opens windows of its own (through the runner, which owns the browser). */
export interface SecondWindowCheck {
	name: string;
	run(ctx: { openWindow: OpenWindow; screenshot(page: Page, name: string): Promise<void> }): Promise<void>;
}
