import * as assert from 'node:assert/strict';
import { workspaceNotice } from '../../../src/picker/workspaceNotice';
import type { ServerState } from '../../../src/mcp/serverRunner';

const running: ServerState = { kind: 'running', info: { url: 'http://127.0.0.1:1/mcp', token: 't', port: 1 }, sessions: 0 };

// What the picker shows about this window's own server: the context key package.json's welcome
// views are chosen by, and the line above the tree when other servers fill the view.
describe('picker: the workspace notice', () => {
	it('lists the workspace while its server runs, starts, or stops on the way to a restart', () => {
		for (const server of [running, { kind: 'starting' }, { kind: 'stopped' }] as ServerState[]) {
			assert.deepEqual(workspaceNotice(1, server), { state: 'ok' });
		}
	});

	it('says each reason the workspace is not listed', () => {
		assert.deepEqual([
			workspaceNotice(2, { kind: 'stopped', reason: 'restricted' }),
			workspaceNotice(1, { kind: 'stopped', reason: 'disabled' }),
			workspaceNotice(1, { kind: 'error', message: 'listen EACCES: permission denied 127.0.0.1:80' }),
		], [
			{ state: 'restricted', note: 'This workspace is not listed: in Restricted Mode its MCP server serves nothing until you trust the folder.' },
			{ state: 'disabled', note: 'This workspace is not listed: its MCP server is turned off (setting mcpResources.enabled).' },
			{ state: 'error', note: 'This workspace is not listed: its MCP server could not start (listen EACCES: permission denied 127.0.0.1:80). Restart it from the status bar, or see the log.' },
		]);
	});

	it('puts a window without a folder first, whatever its server does: there is nothing to serve or connect to', () => {
		for (const server of [running, { kind: 'stopped', reason: 'restricted' }, { kind: 'error', message: 'x' }] as ServerState[]) {
			assert.equal(workspaceNotice(0, server).state, 'noFolder');
		}
		assert.match(workspaceNotice(0, running).note ?? '', /no folder is open/);
	});
});
