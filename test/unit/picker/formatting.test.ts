import * as assert from 'node:assert/strict';
import { UriTemplate } from '@modelcontextprotocol/client';
import { buildContextBundle, fenceFor, languageFor } from '../../../src/picker/contextBundle';
import { configuredServerLabel, parseServerConfigs, readsAsWorkspaceServer } from '../../../src/picker/serverConfig';
import { fillUriTemplate } from '../../../src/picker/templateFill';
import { countTokens } from '../../../src/picker/tokenCount';
import { formatSize, formatTokens } from '../../../src/picker/tokenEstimate';
import { PNG_BYTES } from '../../helpers/fixtureWorkspace';

describe('picker: context bundle', () => {
	it('gives each resource a header with its URI and a fence with the language of its MIME type', () => {
		const bundle = buildContextBundle([
			{ uri: 'file:///ws/a.ts', contents: [{ uri: 'file:///ws/a.ts', mimeType: 'text/x-typescript', text: 'export const a = 1;' }] },
			{ uri: 'git://repo/status', contents: [{ uri: 'git://repo/status', mimeType: 'application/json', text: '{"clean":true}\n' }] },
		], { images: 'note' });
		assert.equal(bundle.text,
			'## file:///ws/a.ts\n\n```typescript\nexport const a = 1;\n```\n\n' +
			'## git://repo/status\n\n```json\n{"clean":true}\n```\n');
		assert.equal(bundle.resourceCount, 2);
		assert.equal(bundle.estimatedTokens, countTokens(bundle.text), 'the bundle is counted with the tokenizer');
		assert.notEqual(bundle.estimatedTokens, Math.ceil(bundle.text.length / 4), 'not characters over four');
	});

	it('uses a longer fence when the content holds a fence', () => {
		assert.equal(fenceFor('a\n```js\nx\n```\n'), '````');
		assert.equal(fenceFor('plain'), '```');
		const bundle = buildContextBundle([{ uri: 'file:///r.md', contents: [{ uri: 'file:///r.md', mimeType: 'text/markdown', text: '`````\n' }] }], { images: 'note' });
		assert.ok(bundle.text.includes('``````markdown\n`````\n``````'), bundle.text);
	});

	it('notes binary content instead of dumping it, and names read errors', () => {
		const bundle = buildContextBundle([
			{ uri: 'file:///ws/x.bin', contents: [{ uri: 'file:///ws/x.bin', mimeType: 'application/octet-stream', blob: Buffer.alloc(2048).toString('base64') }] },
			{ uri: 'file:///ws/gone.txt', server: 'A', error: 'Resource not found' },
			{ uri: 'file:///ws/b.txt', server: 'B', contents: [{ uri: 'file:///ws/b.txt', text: 'b' }] },
		], { images: 'note' });
		assert.match(bundle.text, /_Binary content \(application\/octet-stream, 2 KB\) not included\._/);
		assert.match(bundle.text, /## file:\/\/\/ws\/gone\.txt \(from A\)\n\n_Could not read this resource: Resource not found_/);
		assert.ok(!bundle.text.includes('AAAA'), 'no base64 in the text');
		assert.deepEqual(bundle.unreadable, ['file:///ws/gone.txt'], 'what could not be read, for the message the user sees');
	});

	it('keeps images as images where the target takes them', () => {
		const blob = PNG_BYTES.toString('base64');
		const entry = { uri: 'file:///ws/p.png', contents: [{ uri: 'file:///ws/p.png', mimeType: 'image/png', blob }] };
		const attach = buildContextBundle([entry], { images: 'attach' });
		assert.deepEqual(attach.images, [{ uri: 'file:///ws/p.png', mimeType: 'image/png', data: blob }]);
		assert.match(attach.text, /attached separately/);
		const inline = buildContextBundle([entry], { images: 'inline' });
		assert.ok(inline.text.includes(`![p.png](data:image/png;base64,${blob})`));
		assert.equal(inline.images.length, 0);
		const note = buildContextBundle([entry], { images: 'note' });
		assert.match(note.text, /_Binary content \(image\/png, \d+ B\) not included\._/);
	});

	it('maps MIME types and extensions to fence languages', () => {
		assert.equal(languageFor('text/x-python', 'file:///a'), 'python');
		assert.equal(languageFor('application/vnd.api+json', 'x:/a'), 'json');
		assert.equal(languageFor(undefined, 'file:///a/b.rs'), 'rust');
		assert.equal(languageFor('text/plain', 'file:///a/b'), '');
	});

	it('gives no fence language to an extension every object has a member of (a.constructor, a.__proto__)', () => {
		for (const member of ['constructor', '__proto__', 'hasOwnProperty', 'toString', 'valueOf']) {
			assert.equal(languageFor(undefined, `file:///x/a.${member}`), '', member);
			assert.equal(languageFor('text/plain', `file:///x/a.${member.toUpperCase()}`), '', member);
		}
		const bundle = buildContextBundle([{ uri: 'file:///x/a.constructor', contents: [{ uri: 'file:///x/a.constructor', text: 'x' }] }], { images: 'note' });
		assert.equal(bundle.text, '## file:///x/a.constructor\n\n```\nx\n```\n');
	});
});

describe('picker: token formatting', () => {
	it('formats compactly, with "~" only for an estimate', () => {
		assert.equal(formatTokens(540, true), '540 tok');
		assert.equal(formatTokens(12_345, true), '12.3k tok');
		assert.equal(formatTokens(540), '~540 tok');
		assert.equal(formatTokens(12_345), '~12.3k tok');
		assert.equal(formatSize(2150), '2.1 KB');
		assert.equal(formatSize(100), '100 B');
	});
});

describe('picker: server settings', () => {
	it('accepts the HTTP and the stdio shapes', () => {
		const { servers, errors } = parseServerConfigs([
			{ name: 'remote', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer x' } },
			{ name: 'local', command: 'node', args: ['server.js'], env: { DEBUG: '1' } },
		]);
		assert.deepEqual(errors, []);
		assert.deepEqual(servers, [
			{ kind: 'http', name: 'remote', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer x' } },
			{ kind: 'stdio', name: 'local', command: 'node', args: ['server.js'], env: { DEBUG: '1' } },
		]);
	});

	it('keeps env and header names every object has a member of (__proto__, constructor) as given', () => {
		// As settings arrive: parsed JSON, where `__proto__` is an own key like any other.
		const { servers, errors } = parseServerConfigs(JSON.parse('[{ "name": "s", "command": "x", "env": { "__proto__": "1", "constructor": "2" } },' +
			'{ "name": "h", "url": "http://127.0.0.1:9/mcp", "headers": { "__proto__": "3" } }]'));
		assert.deepEqual(errors, []);
		const [stdio, http] = servers;
		assert.ok(stdio.kind === 'stdio' && http.kind === 'http');
		assert.deepEqual(Object.entries(stdio.env), [['__proto__', '1'], ['constructor', '2']]);
		assert.deepEqual(Object.entries(http.headers), [['__proto__', '3']]);
	});

	it('skips bad entries with a message naming each and keeps the good ones', () => {
		const { servers, errors } = parseServerConfigs([
			{ name: 'ok', url: 'https://example.test/mcp' },
			{ url: 'http://x' },
			{ name: 'both', url: 'http://x', command: 'y' },
			{ name: 'ftp', url: 'ftp://x' },
			{ name: 'args', command: 'x', args: [1] },
			{ name: 'ok', command: 'dup' },
			{ name: 'neither' },
		]);
		assert.deepEqual(servers.map(s => s.name), ['ok']);
		assert.equal(errors.length, 6);
		assert.match(errors[0], /servers\[1\]: "name" must be a non-empty string/);
		assert.match(errors[1], /not both/);
		assert.match(errors[2], /http:\/\/ or https:\/\//);
		assert.match(errors[3], /"args" must be an array of strings/);
		assert.match(errors[4], /used twice/);
		assert.match(errors[5], /needs "url" .* or "command"/);
		assert.deepEqual(parseServerConfigs({}).errors, ['mcpResources.servers must be an array of server entries']);
	});

	it('marks a configured server whose name reads as "This workspace" (any case, spacing, invisible characters) and no other', () => {
		for (const name of ['This workspace', ' this  WORKSPACE ', 'This\u200b workspace', 'Ｔhis workspace', 'This\u00a0workspace']) {
			assert.ok(readsAsWorkspaceServer(name), JSON.stringify(name));
			assert.equal(configuredServerLabel(name), `${name} (mcpResources.servers)`);
		}
		for (const name of ['This workspace 2', 'Thisworkspace', 'Docs']) {
			assert.equal(configuredServerLabel(name), name);
		}
	});
});

describe('picker: URI templates', () => {
	it('finds variables and expands simple and reserved forms', () => {
		assert.deepEqual(new UriTemplate('git://{repo}/show/{ref}').variableNames, ['repo', 'ref']);
		assert.deepEqual(new UriTemplate('file:///{+path}').variableNames, ['path']);
		assert.equal(new UriTemplate('file:///{+path}').expand({ path: 'src/a b.ts' }), 'file:///src/a%20b.ts');
		assert.equal(new UriTemplate('git://{repo}/show/{ref}').expand({ repo: 'r', ref: 'a/b' }), 'git://r/show/a%2Fb');
		assert.equal(new UriTemplate('x://q{?a,b}').expand({ a: '1', b: '2 3' }), 'x://q?a=1&b=2%203');
	});

	it('fills a server\'s template by asking for each variable once, with the values given so far', async () => {
		const asked: [string, Record<string, string>][] = [];
		const uri = await fillUriTemplate('git://{repo}/show/{ref}{?repo}', async (variable, filled) => {
			asked.push([variable, { ...filled }]);
			return `${variable} 1`;
		});
		assert.equal(uri, 'git://repo%201/show/ref%201?repo=repo%201');
		assert.deepEqual(asked, [['repo', {}], ['ref', { repo: 'repo 1' }]]);
		assert.equal(await fillUriTemplate('x://{a}/{b}', async variable => variable === 'b' ? undefined : 'v'), undefined, 'the user gave up');
		await assert.rejects(fillUriTemplate('x://{a', async () => 'v'), 'not a template');
	});

	it('expands variables named after members of every object (__proto__, constructor) to what the user typed', async () => {
		const contexts: string[] = [];
		const uri = await fillUriTemplate('x://{__proto__}/{constructor}/{toString}', async (variable, filled) => {
			contexts.push(JSON.stringify(filled));
			return `${variable} 1`;
		});
		assert.equal(uri, 'x://__proto__%201/constructor%201/toString%201');
		assert.deepEqual(contexts, ['{}', '{"__proto__":"__proto__ 1"}', '{"__proto__":"__proto__ 1","constructor":"constructor 1"}'],
			'the completion context holds what was typed, under the server\'s own names');
	});
});
