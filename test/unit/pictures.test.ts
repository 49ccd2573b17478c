import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const root = path.join(__dirname, '../../..');

/** Pictures a page shows that no check makes yet, each with the reason (none now). */
const NOT_YET_MADE_BY_A_CHECK = new Map<string, string>([]);

/** The local pictures a Markdown file shows, as paths from the repository's root. */
function picturesIn(markdownFile: string): string[] {
	const text = readFileSync(path.join(root, markdownFile), 'utf8');
	return [...text.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)]
		.map(m => m[1])
		.filter(target => !/^[a-z]+:/i.test(target))
		.map(target => path.posix.normalize(path.posix.join(path.posix.dirname(markdownFile), target)));
}

/** What README.md, docs/ and the walkthrough (its pages, and pictures named in package.json) show. */
function shownPictures(): Map<string, string[]> {
	const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
		contributes: { walkthroughs: { steps: { media: { markdown?: string; image?: string | Record<string, string> } }[] }[] };
	};
	const pages = ['README.md', ...readdirSync(path.join(root, 'docs')).filter(f => f.endsWith('.md')).map(f => `docs/${f}`),
		...readdirSync(path.join(root, 'media', 'walkthrough')).filter(f => f.endsWith('.md')).map(f => `media/walkthrough/${f}`)];
	const shown = new Map<string, string[]>();
	const add = (picture: string, where: string) => shown.set(picture, [...(shown.get(picture) ?? []), where]);
	for (const page of pages) {
		picturesIn(page).forEach(picture => add(picture, page));
	}
	for (const step of manifest.contributes.walkthroughs.flatMap(w => w.steps)) {
		if (step.media.markdown) {
			picturesIn(step.media.markdown).forEach(picture => add(picture, 'package.json walkthrough'));
		}
		const images = typeof step.media.image === 'string' ? [step.media.image] : Object.values(step.media.image ?? {});
		images.forEach(image => add(image, 'package.json walkthrough'));
	}
	return shown;
}

/** Where the browser checks keep pictures: each `keepPicture('<shot>', '<destination>')` in test/e2e. */
function keptPictures(): Map<string, string> {
	const dir = path.join(root, 'test', 'e2e');
	const kept = new Map<string, string>();
	for (const file of readdirSync(dir).filter(f => f.endsWith('.ts'))) {
		for (const [, destination] of readFileSync(path.join(dir, file), 'utf8').matchAll(/\bkeepPicture\(\s*'[^']+',\s*'([^']+)'\s*\)/g)) {
			kept.set(destination, `test/e2e/${file}`);
		}
	}
	return kept;
}

// A picture in the README or the walkthrough that no UI check makes drifts from the product the
// day the UI changes; one a check makes that no page shows is dead weight in the repository.
describe('pictures: every picture the README, docs and walkthrough show is made by a browser check', () => {
	const shown = shownPictures();
	const kept = keptPictures();

	it('finds the pictures the pages show and the ones the checks keep', () => {
		assert.ok(shown.has('media/screenshot-picker.png'), [...shown.keys()].join(', '));
		assert.ok(shown.has('media/walkthrough/connect.png'), [...shown.keys()].join(', '));
		assert.ok(kept.has('media/screenshot-picker.png'), [...kept.keys()].join(', '));
	});

	it('each shown picture is kept by a check in test/e2e', () => {
		const missing = [...shown.keys()].filter(picture => !kept.has(picture) && !NOT_YET_MADE_BY_A_CHECK.has(picture));
		assert.deepEqual(missing.map(p => `${p} (shown by ${shown.get(p)?.join(', ')})`), []);
	});

	it('each picture a check keeps is shown somewhere', () => {
		const unshown = [...kept.keys()].filter(picture => !shown.has(picture));
		assert.deepEqual(unshown.map(p => `${p} (kept by ${kept.get(p)})`), []);
	});

	it('lists as not yet made only pictures that are shown and no check makes', () => {
		for (const [picture, why] of NOT_YET_MADE_BY_A_CHECK) {
			assert.ok(shown.has(picture), `${picture} is no longer shown: drop it from the list (${why})`);
			assert.ok(!kept.has(picture), `${picture} is now kept by ${kept.get(picture)}: drop it from the list`);
		}
	});
});
