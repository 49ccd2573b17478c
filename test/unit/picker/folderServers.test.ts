import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { nullLogger } from '../../../src/common/logger';
import { Consent, consentKey, describeServer, FolderServerSetting, mergeServerSettings, printable } from '../../../src/picker/folderServers';
import { PickerService } from '../../../src/picker/pickerService';
import { ServerConfig } from '../../../src/picker/serverConfig';

const FOLDER = 'file:///repos/cloned';
const folder = (value: unknown): FolderServerSetting => ({ folderId: FOLDER, folderLabel: 'the folder "cloned"', value });
const stdio = (name: string, args: string[] = []) => ({ name, command: 'sh', args });
const noConsent = () => undefined;
const names = (configs: readonly ServerConfig[]) => configs.map(c => c.name);

describe('picker: servers from folder settings', () => {
	it('starts the user\'s entries as before', () => {
		const merged = mergeServerSettings({ user: [stdio('mine'), { name: 'web', url: 'http://127.0.0.1:1/mcp' }], folders: [], trusted: true, consentOf: noConsent });
		assert.deepEqual(names(merged.start), ['mine', 'web']);
		assert.deepEqual(merged.held, []);
	});

	it('never looks at folder entries in Restricted Mode, and says so in a note', () => {
		const merged = mergeServerSettings({
			user: [stdio('mine')],
			folders: [folder([stdio('docs', ['-c', 'id > /tmp/pwned'])]), folder('not even an array')],
			trusted: false,
			// Even an entry allowed earlier stays off while the folder is not trusted.
			consentOf: () => 'allowed',
		});
		assert.deepEqual(names(merged.start), ['mine']);
		assert.deepEqual(merged.held, []);
		assert.deepEqual(merged.errors, [], 'an untrusted value is not parsed, so not reported');
		assert.equal(merged.notes.length, 2);
		assert.match(merged.notes[0], /ignored: Restricted Mode/);
	});

	it('holds a trusted folder\'s entries until the user allows them, and adds them to the user\'s rather than replacing them', () => {
		const entries = [stdio('docs', ['-c', 'touch marker']), { name: 'web', url: 'http://example.invalid/mcp', headers: { Authorization: 'Bearer x' } }];
		const held = mergeServerSettings({ user: [stdio('mine')], folders: [folder(entries)], trusted: true, consentOf: noConsent });
		assert.deepEqual(names(held.start), ['mine']);
		assert.deepEqual(held.held.map(h => [h.config.name, h.consent, h.folderLabel]), [['docs', undefined, 'the folder "cloned"'], ['web', undefined, 'the folder "cloned"']]);

		const answers = new Map<string, Consent>([[held.held[0].key, 'allowed'], [held.held[1].key, 'declined']]);
		const after = mergeServerSettings({ user: [stdio('mine')], folders: [folder(entries)], trusted: true, consentOf: k => answers.get(k) });
		assert.deepEqual(names(after.start), ['mine', 'docs']);
		assert.deepEqual(after.held.map(h => [h.config.name, h.consent]), [['web', 'declined']]);
		assert.deepEqual(after.allowed.map(h => h.config.name), ['docs']);
	});

	it('lets the user\'s entry win a name clash, with a note naming it', () => {
		const merged = mergeServerSettings({ user: [{ name: 'docs', url: 'http://127.0.0.1:1/mcp' }], folders: [folder([stdio('docs')])], trusted: true, consentOf: () => 'allowed' });
		assert.deepEqual(merged.start.map(c => c.kind), ['http']);
		assert.deepEqual(merged.held, []);
		assert.match(merged.notes.join('\n'), /"docs" in the settings of the folder "cloned" is ignored: .*user settings win/);
	});

	it('reports a folder\'s invalid entries with the folder named, and keeps its valid ones', () => {
		const merged = mergeServerSettings({ user: undefined, folders: [folder([{ name: 'bad' }, stdio('ok')])], trusted: true, consentOf: noConsent });
		assert.deepEqual(merged.held.map(h => h.config.name), ['ok']);
		assert.equal(merged.errors.length, 1);
		assert.match(merged.errors[0], /^the folder "cloned": mcpResources\.servers\[0\] \("bad"\)/);
	});

	it('keys consent by folder and by everything that decides what runs or is contacted', () => {
		const base: ServerConfig = { kind: 'stdio', name: 'docs', command: 'node', args: ['server.js'], env: { A: '1', B: '2' } };
		const key = consentKey(FOLDER, base);
		assert.match(key, /^[0-9a-f]{64}$/);
		assert.equal(consentKey(FOLDER, { ...base, env: { B: '2', A: '1' } }), key, 'the order of variables does not matter');
		for (const changed of [
			{ ...base, command: 'nodejs' },
			{ ...base, args: ['server.js', '--evil'] },
			{ ...base, env: { A: '1', B: '3' } },
			{ ...base, name: 'docs2' },
		]) {
			assert.notEqual(consentKey(FOLDER, changed), key, JSON.stringify(changed));
		}
		assert.notEqual(consentKey('file:///repos/other', base), key, 'another folder asks again');
		const web: ServerConfig = { kind: 'http', name: 'web', url: 'https://a.example/mcp', headers: { Authorization: 'Bearer 1' } };
		assert.notEqual(consentKey(FOLDER, { ...web, url: 'https://b.example/mcp' }), consentKey(FOLDER, web));
		assert.notEqual(consentKey(FOLDER, { ...web, headers: { Authorization: 'Bearer 2' } }), consentKey(FOLDER, web));
	});

	it('describes exactly what an entry runs or contacts', () => {
		assert.equal(
			describeServer({ kind: 'stdio', name: 'docs', command: 'sh', args: ['-c', 'id > /tmp/pwned'], env: { TOKEN: 's3cret' } }, '/repos/cloned'),
			'Runs: sh -c \'id > /tmp/pwned\'\nIn: /repos/cloned\nWith the environment variables: TOKEN',
		);
		assert.equal(
			describeServer({ kind: 'http', name: 'web', url: 'https://evil.example:8443/mcp?x=1', headers: { Authorization: 'Bearer s3cret' } }),
			'Contacts https://evil.example:8443\nURL: https://evil.example:8443/mcp?x=1\nSends the headers: Authorization',
		);
	});

	it('shows line breaks and bidirectional overrides a folder put in an entry as escapes, so one entry cannot pass for another', () => {
		const text = describeServer({ kind: 'stdio', name: 'docs', command: 'sh', args: ['-c', 'rm -rf ~\nIn: /safe', 'a\u202eb'], env: { 'X\nY': '1' } });
		assert.equal(text.split('\n').length, 2, text);
		assert.match(text, /'rm -rf ~\\u\{a\}In: \/safe' 'a\\u\{202e\}b'/);
		assert.equal(printable('docs" from your user settings\r\n'), 'docs" from your user settings\\u{d}\\u{a}');
		assert.equal(printable('Résumé 文書'), 'Résumé 文書', 'other scripts are left alone');
	});
});

describe('picker: held folder servers are never started or contacted', () => {
	let dir: string;
	let listener: http.Server;
	let requests: number;
	let url: string;

	beforeEach(async () => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwr-held-'));
		requests = 0;
		listener = http.createServer((_req, res) => {
			requests++;
			res.writeHead(500).end();
		});
		await new Promise<void>(resolve => listener.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(listener.address() as { port: number }).port}/mcp`;
	});

	afterEach(async () => {
		await new Promise(resolve => listener.close(resolve));
		fs.rmSync(dir, { recursive: true, force: true });
	});

	it('shows held entries without a connection, and starts one once allowed', async () => {
		const marker = path.join(dir, 'ran');
		const entries = [stdio('docs', ['-c', `touch '${marker}'`]), { name: 'web', url }];
		const service = new PickerService({ log: nullLogger, backoffMs: [60_000] });
		try {
			const held = mergeServerSettings({ user: undefined, folders: [folder(entries)], trusted: true, consentOf: noConsent });
			service.setConfiguredServers(held.start, held.held);
			assert.deepEqual(service.heldServers().map(h => h.config.name), ['docs', 'web']);
			assert.deepEqual(service.servers(), [], 'no connection exists for a held entry');
			// Loading everything the picker has settles at once: there is nothing to load.
			await service.loadAll();
			assert.equal(fs.existsSync(marker), false, 'the command did not run');
			assert.equal(requests, 0, 'the URL was not contacted');

			const answers = new Map<string, Consent>(held.held.map(h => [h.key, 'allowed']));
			const allowed = mergeServerSettings({ user: undefined, folders: [folder(entries)], trusted: true, consentOf: k => answers.get(k) });
			service.setConfiguredServers(allowed.start, allowed.held);
			assert.deepEqual(service.heldServers(), []);
			assert.deepEqual(service.servers().map(s => s.id), ['config:docs', 'config:web']);
			// Neither is a real MCP server: loading fails, but only after each was started or contacted.
			await service.loadAll();
			assert.equal(fs.existsSync(marker), true, 'the allowed command ran');
			assert.ok(requests > 0, 'the allowed URL was contacted');
		} finally {
			service.dispose();
		}
	});
});
