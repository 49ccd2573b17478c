import * as assert from 'node:assert/strict';
import { checkIcon, IconStore, MAX_ICON_BYTES, MAX_ICONS_PER_SERVER, pickIcon } from '../../../src/client/foreignIcons';
import { escapeIconSyntax, escapeMarkdownInline, escapeMarkdownRendered, markdownCodeSpan, markdownUri, safeMimeType } from '../../../src/picker/markdownText';
import { PNG_BYTES } from '../../helpers/fixtureWorkspace';

const png = (bytes: Buffer = PNG_BYTES) => `data:image/png;base64,${bytes.toString('base64')}`;
const refusal = (icon: unknown) => {
	const result = checkIcon(icon);
	return 'refused' in result ? result.refused : undefined;
};

/** The first ASCII punctuation character of `text` that no backslash escapes. */
function unescapedPunctuation(text: string): string | undefined {
	for (let i = 0; i < text.length; i++) {
		if (text[i] === '\\') {
			i++;
		} else if (/[!-/:-@[-`{-~]/.test(text[i])) {
			return `${text[i]} at ${i}`;
		}
	}
	return undefined;
}

describe('picker: server strings in Markdown', () => {
	const attack = 'a\n\n## file:///etc/passwd\r\n![t](https://tracker.test/t.png) <img src=x> https://tracker.test www.tracker.test me@tracker.test &#91; $(zap) `code`\u2028x';

	it('puts text a reader sees raw on one line with inline constructs escaped', () => {
		const text = escapeMarkdownInline(attack);
		assert.ok(!/[\r\n\u2028]/.test(text), text);
		assert.ok(!/(^|[^\\])(!\[|\[|<|`|&)/.test(text), `an unescaped opener in ${text}`);
		assert.equal(escapeMarkdownInline('Resource not found: file:///ws/a.ts'), 'Resource not found: file:///ws/a.ts', 'ordinary text is unchanged');
		assert.equal(escapeMarkdownInline('x'.repeat(10), 4), 'xxxx…');
	});

	it('escapes every punctuation character of text Markdown renders, so no URL, name or address becomes a link', () => {
		const text = escapeMarkdownRendered(attack);
		assert.ok(!/[\r\n\u2028]/.test(text), text);
		assert.equal(unescapedPunctuation(text), undefined, text);
		assert.ok(!text.includes('https://') && !text.includes('www.') && !text.includes('me@'), text);
	});

	it('makes code spans no backtick inside can close', () => {
		assert.equal(markdownCodeSpan('file:///a.ts'), '`file:///a.ts`');
		assert.equal(markdownCodeSpan('a``b'), '```a``b```');
		assert.equal(markdownCodeSpan('`x'), '`` `x ``');
		assert.equal(markdownCodeSpan('x\n\n![t](u)'), '`x  ![t](u)`');
	});

	it('shows URIs as they are unless they hold what a URI cannot', () => {
		assert.equal(markdownUri('file:///ws/src/a_b.ts?x=1&y=2#top'), 'file:///ws/src/a_b.ts?x=1&y=2#top');
		assert.equal(markdownUri('x://a\n## b `c` <d>\\'), 'x://a%0A##%20b%20%60c%60%20%3Cd%3E%5C');
		assert.equal(markdownUri('x://[id]/![p](q)'), 'x://\\[id\\]/!\\[p\\](q)');
		assert.equal(markdownUri('x://\ud800'), 'x://%EF%BF%BD');
	});

	it('keeps $(icon) syntax in labels as text', () => {
		assert.equal(escapeIconSyntax('$(check) done $(loading~spin)'), '\\$(check) done \\$(loading~spin)');
		assert.equal(escapeIconSyntax('cost $5 (est.)'), 'cost $5 (est.)');
	});

	it('shows a MIME type only when it looks like one', () => {
		assert.equal(safeMimeType('Text/Markdown; charset=utf-8'), 'text/markdown');
		assert.equal(safeMimeType('application/vnd.api+json'), 'application/vnd.api+json');
		assert.equal(safeMimeType('text/plain\n\n## x'), undefined);
		assert.equal(safeMimeType('text/_x_'), undefined);
		assert.equal(safeMimeType(undefined), undefined);
	});
});

describe('picker: icons of other servers', () => {
	it('accepts a data: PNG and gives it back canonical', () => {
		assert.deepEqual(checkIcon({ src: png(), mimeType: 'image/png' }), { dataUri: png(), bytes: PNG_BYTES.length });
		assert.deepEqual(checkIcon({ src: png().replace('image/png', 'IMAGE/PNG') }), { dataUri: png(), bytes: PNG_BYTES.length });
	});

	it('accepts JPEG, GIF and WebP by their bytes', () => {
		const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
		const gif = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
		const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]);
		assert.equal(refusal({ src: `data:image/jpg;base64,${jpeg.toString('base64')}`, mimeType: 'image/jpeg' }), undefined);
		assert.equal(refusal({ src: `data:image/gif;base64,${gif.toString('base64')}` }), undefined);
		assert.equal(refusal({ src: `data:image/webp;base64,${webp.toString('base64')}` }), undefined);
	});

	it('refuses remote, SVG, oversized, mislabelled and malformed icons', () => {
		assert.match(refusal({ src: 'https://tracker.test/i.png', mimeType: 'image/png' })!, /never fetched/);
		assert.match(refusal({ src: 'http://tracker.test/i.png' })!, /never fetched/);
		assert.match(refusal({ src: 'file:///etc/passwd' })!, /not a data: URI/);
		assert.match(refusal({ src: `data:image/svg+xml;base64,${Buffer.from('<svg/>').toString('base64')}` })!, /image\/svg\+xml is not one of/);
		assert.match(refusal({ src: 'data:image/svg+xml,<svg onload="fetch(1)"/>' })!, /not a base64 data: URI/);
		assert.match(refusal({ src: png(Buffer.concat([PNG_BYTES, Buffer.alloc(MAX_ICON_BYTES)])) })!, /larger than 16 KB/);
		assert.match(refusal({ src: png(Buffer.concat([PNG_BYTES, Buffer.alloc(MAX_ICON_BYTES - PNG_BYTES.length + 1)])) })!, /larger than 16 KB/);
		assert.equal(refusal({ src: png(Buffer.concat([PNG_BYTES, Buffer.alloc(MAX_ICON_BYTES - PNG_BYTES.length)])) }), undefined, 'exactly the cap is fine');
		assert.match(refusal({ src: png(Buffer.from('GIF89a....')) })!, /bytes are not image\/png/);
		assert.match(refusal({ src: png(), mimeType: 'image/gif' })!, /disagrees/);
		assert.match(refusal({ src: `${png()}"); background: url(https://tracker.test` })!, /not a base64 data: URI/);
		assert.match(refusal({ src: 42 })!, /no src/);
		assert.match(refusal(null)!, /no src/);
	});

	it('picks an icon per theme, an unthemed one serving both', () => {
		const gif = `data:image/gif;base64,${Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1').toString('base64')}`;
		assert.deepEqual(pickIcon([{ src: 'https://x.test/a.png' }, { src: png() }]), { light: png(), dark: png(), bytes: PNG_BYTES.length });
		const themed = pickIcon([{ src: png(), theme: 'light' }, { src: gif, theme: 'dark' }]);
		assert.equal(themed?.light, png());
		assert.equal(themed?.dark, gif);
		assert.equal(pickIcon([{ src: 'https://x.test/a.png' }]), undefined);
		assert.equal(pickIcon('not an array'), undefined);
	});

	it('shares one icon between items and keeps a bounded number per server', () => {
		const store = new IconStore();
		const first = store.icon([{ src: png() }]);
		assert.ok(first);
		assert.equal(store.icon([{ src: png() }]), first, 'the same object for the same icon');
		for (let i = 0; i < MAX_ICONS_PER_SERVER; i++) {
			store.icon([{ src: png(Buffer.concat([PNG_BYTES, Buffer.from([i & 0xff, i >> 8])])) }]);
		}
		assert.equal(store.icon([{ src: png(Buffer.concat([PNG_BYTES, Buffer.from('new')])) }]), undefined, 'past the cap: the default glyph');
		assert.equal(store.icon([{ src: png() }]), first, 'known icons still show');
	});
});
