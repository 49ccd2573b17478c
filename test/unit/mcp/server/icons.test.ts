import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Icon } from '@modelcontextprotocol/sdk/types.js';
import { nullLogger } from '../../../../src/common/logger';
import { DiagnosticsProvider } from '../../../../src/core/diagnostics/diagnosticsProvider';
import { EditorProvider } from '../../../../src/core/editor/editorProvider';
import { FilesProvider } from '../../../../src/core/files/filesProvider';
import { GitProvider } from '../../../../src/core/git/gitProvider';
import { noOpenDocuments } from '../../../../src/core/ports';
import { ProviderRegistry } from '../../../../src/core/registry';
import { WorkspaceScope } from '../../../../src/core/workspaceScope';
import { ICON_PNG } from '../../../../src/mcp/server/iconData';
import { GitCliSource } from '../../../../src/node/git/gitCliSource';
import { NodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { StaticFolders } from '../../../../src/node/staticSources';
import { FakeDiagnostics, problem } from '../../../fakes/fakeDiagnostics';
import { FakeEditor } from '../../../fakes/fakeEditor';
import { FakeSettings } from '../../../fakes/fakeSettings';
import { FakeWatcher } from '../../../fakes/fakeWatcher';
import { TestRepo } from '../../../helpers/gitRepo';
import { connectInMemory, ConnectedClient, fastTracker, listAll } from '../../../helpers/harness';

const REPO_ROOT = path.join(__dirname, '../../../../..');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MAX_ICON_BYTES = 2048;

/** The PNG inside an icon, checked against what the icon says about itself. */
function decodeIcon(icon: Icon): Buffer {
	assert.equal(icon.mimeType, 'image/png');
	const match = /^data:image\/png;base64,([A-Za-z0-9+/]+=*)$/.exec(icon.src);
	assert.ok(match, `a base64 PNG data: URI, got ${icon.src.slice(0, 40)}`);
	const png = Buffer.from(match[1], 'base64');
	assert.ok(png.subarray(0, 8).equals(PNG_SIGNATURE), 'PNG signature');
	assert.equal(png.toString('latin1', 12, 16), 'IHDR');
	assert.deepEqual(icon.sizes, [`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`], 'sizes match the image');
	assert.ok(png.length <= MAX_ICON_BYTES, `${png.length} bytes`);
	return png;
}

function assertOneIcon(icons: Icon[] | undefined, family: keyof typeof ICON_PNG, what: string): void {
	assert.equal(icons?.length, 1, `${what}: one icon`);
	decodeIcon(icons[0]);
	assert.equal(icons[0].src, ICON_PNG[family].src, `${what}: the ${family} icon`);
}

describe('icons (SEP-973) through an MCP client', () => {
	let repo: TestRepo;
	let registry: ProviderRegistry;
	let conn: ConnectedClient;

	beforeEach(async () => {
		repo = new TestRepo('proj');
		repo.write('src/a.ts', 'export const a = 1;\n');
		repo.write('README.md', '# proj\n');
		repo.commitAll('initial');
		const folders = new StaticFolders([repo.root]);
		const settings = new FakeSettings();
		const files = new FilesProvider({
			folders, reader: new NodeFileSystem(), watcher: new FakeWatcher(), documents: noOpenDocuments, settings, log: nullLogger,
		});
		const scope = new WorkspaceScope(folders, files, new NodeFileSystem());
		registry = new ProviderRegistry([
			files,
			new DiagnosticsProvider(new FakeDiagnostics({ [`${repo.root}/src/a.ts`]: [problem('error', 0, 'bad')] }), scope),
			new GitProvider({ source: new GitCliSource({ folders, log: nullLogger }), scope, settings, log: nullLogger }),
			new EditorProvider(new FakeEditor(), scope, { throttleMs: 100 }),
		], fastTracker);
		files.start();
		conn = await connectInMemory(registry);
	});
	afterEach(async () => {
		await conn.close();
		registry.dispose();
		repo.dispose();
	});

	it('initialize names the server with its icon', () => {
		const info = conn.client.getServerVersion();
		assertOneIcon(info?.icons, 'server', 'serverInfo');
	});

	it('every template carries its family icon', async () => {
		const { resourceTemplates } = await conn.client.listResourceTemplates();
		const familyOf = (t: string) => t.startsWith('file:') ? 'files' : t.startsWith('diagnostics:') ? 'problems' : t.startsWith('git:') ? 'git' : 'editor';
		assert.ok(resourceTemplates.some(t => t.uriTemplate.startsWith('file:')) && resourceTemplates.some(t => t.uriTemplate.startsWith('git:')));
		for (const template of resourceTemplates) {
			assertOneIcon(template.icons, familyOf(template.uriTemplate), template.uriTemplate);
		}
	});

	it('every non-file resource carries its family icon, and no file entry carries one', async () => {
		const resources = await listAll(conn.client) as { uri: string; icons?: Icon[] }[];
		const families = { diagnostics: 'problems', git: 'git', editor: 'editor' } as const;
		const seen = new Set<string>();
		for (const resource of resources) {
			const scheme = resource.uri.slice(0, resource.uri.indexOf(':'));
			if (scheme === 'file') {
				assert.equal(resource.icons, undefined, resource.uri);
			} else {
				assert.ok(scheme in families, `a family icon is defined for ${resource.uri}`);
				assertOneIcon(resource.icons, families[scheme as keyof typeof families], resource.uri);
			}
			seen.add(scheme);
		}
		assert.deepEqual([...seen].sort(), ['diagnostics', 'editor', 'file', 'git']);
	});
});

describe('icon constants', () => {
	it('are the committed PNGs in media/icons, byte for byte, each at most 2 KB', () => {
		for (const [name, icon] of Object.entries(ICON_PNG)) {
			const png = decodeIcon({ src: icon.src, mimeType: 'image/png', sizes: [icon.size] });
			assert.ok(png.equals(readFileSync(path.join(REPO_ROOT, 'media', 'icons', `${name}.png`))), `${name}: run scripts/make-icons.mjs`);
		}
	});

	it('reach clients of the bundled headless server (dist/cli.js)', async function () {
		this.timeout(30_000);
		const cli = path.join(REPO_ROOT, 'dist', 'cli.js');
		assert.ok(existsSync(cli), 'run npm run build first');
		const repo = new TestRepo('headless');
		const client = new Client({ name: 'icons-test', version: '1' });
		try {
			repo.write('a.txt', 'a\n');
			repo.commitAll('initial');
			await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'serve', '--root', repo.root, '--stdio', '--no-cache'], stderr: 'ignore' }));
			assertOneIcon(client.getServerVersion()?.icons, 'server', 'serverInfo');
			const { resources } = await client.listResources();
			const status = resources.find(r => r.uri === 'git://headless/status');
			assertOneIcon(status?.icons, 'git', 'git://headless/status');
			assert.equal(resources.find(r => r.uri.startsWith('file:'))?.icons, undefined);
		} finally {
			await client.close();
			repo.dispose();
		}
	});
});
