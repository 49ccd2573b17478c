// The package section: what a user downloads. Packs this checkout and the previous build (the
// checkout previousBuild.ts made, with its own scripts/build/package.ts and node_modules) into
// .vsix files and reports, side by side, the bytes packed and unpacked, the file count, and the
// largest files. The sizes come from the archive's central directory (yauzl), as VS Code's own
// installer reads it.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import yauzl from 'yauzl';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import { errorText } from '../lib/errorText.js';
import { renderTable } from './report.js';
import type { SectionContext, SectionReport } from './section.js';

/** Where scripts/build/package.ts writes the .vsix, from the root of the checkout it packs. */
const VSIX = path.join('dist', 'mcp-workspace-resources.vsix');

/** One packed build. */
export interface PackageSize {
	packedBytes: number;
	unpackedBytes: number;
	files: number;
	/** Every file in the archive with its unpacked size, largest first. */
	entries: { name: string; bytes: number }[];
}

/** The files of a .vsix (directory entries left out) and their unpacked sizes, largest first. */
export function vsixEntries(file: string): Promise<{ name: string; bytes: number }[]> {
	return new Promise((resolve, reject) => {
		yauzl.open(file, { lazyEntries: true, autoClose: true }, (err, zip) => {
			if (err) return reject(err);
			const entries: { name: string; bytes: number }[] = [];
			zip.on('entry', (entry: yauzl.Entry) => {
				if (!entry.fileName.endsWith('/')) entries.push({ name: entry.fileName, bytes: entry.uncompressedSize });
				zip.readEntry();
			});
			zip.on('end', () => resolve(entries.sort((a, b) => b.bytes - a.bytes || a.name.localeCompare(b.name))));
			zip.on('error', reject);
			zip.readEntry();
		});
	});
}

/** Packs the checkout at `root` with its own package script, and measures the .vsix. */
export async function packCheckout(root: string): Promise<PackageSize> {
	const script = path.join(root, 'scripts', 'build', 'package.ts');
	const loader = path.join(root, 'scripts', 'bootstrap', 'registerTypeScript.mjs');
	if (!existsSync(script) || !existsSync(loader)) throw new Error(`${root} has no scripts/build/package.ts to pack it with`);
	execFileSync(process.execPath, ['--import', loader, script], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
	const vsix = path.join(root, VSIX);
	const entries = await vsixEntries(vsix);
	return { packedBytes: statSync(vsix).size, unpackedBytes: entries.reduce((sum, e) => sum + e.bytes, 0), files: entries.length, entries };
}

/** A whole number with its thousands grouped (bytes, files), or '—'. */
const count = (v: number | undefined) => (v === undefined ? '—' : v.toLocaleString('en-US'));

/** "+12.3%" from `previous` to `value`, or '' when either is missing. */
function change(value: number | undefined, previous: number | undefined): string {
	if (value === undefined || previous === undefined || previous === 0) return '';
	const percent = (value - previous) / previous * 100;
	return `${percent >= 0 ? '+' : ''}${percent.toFixed(1)}%`;
}

export async function runPackageSize(ctx: SectionContext): Promise<SectionReport> {
	const top = ctx.flags.number('--top', 10, 1);
	const errors: string[] = [];
	const problems: string[] = [];
	let ours: PackageSize | undefined;
	let previous: PackageSize | undefined;
	ctx.log('packing this build (scripts/build/package.ts)');
	try {
		ours = await packCheckout(repoRoot);
	} catch (err) {
		errors.push(`package, this build: ${errorText(err).split('\n')[0]}`);
	}
	// The previous build is a checkout of its own (previousBuild.ts): dist/cli.js's folder's parent.
	const previousCli = ctx.previousCli();
	if (previousCli) {
		ctx.log('packing the previous build with its own package script');
		try {
			previous = await packCheckout(path.dirname(path.dirname(previousCli)));
		} catch (err) {
			problems.push(`package, the previous build is not measured: ${errorText(err).split('\n')[0]}`);
		}
	}
	const row = (label: string, pick: (p: PackageSize) => number) => [label, count(ours && pick(ours)), count(previous && pick(previous)), change(ours && pick(ours), previous && pick(previous))];
	const previousBytes = new Map(previous?.entries.map(e => [e.name, e.bytes]));
	const largest = (ours?.entries ?? []).slice(0, top).map(e => [e.name, count(e.bytes), count(previousBytes.get(e.name)), change(e.bytes, previousBytes.get(e.name))]);
	const text = [
		'the package: the .vsix scripts/build/package.ts makes, this build beside the previous one (bytes)',
		renderTable(['', 'this build', 'previous', 'change'], [
			row('packed (.vsix)', p => p.packedBytes),
			row('unpacked', p => p.unpackedBytes),
			row('files', p => p.files),
		]),
		'',
		`its ${Math.min(top, ours?.entries.length ?? 0)} largest files, unpacked`,
		renderTable(['file', 'this build', 'previous', 'change'], largest),
	].join('\n');
	const summary = (p: PackageSize | undefined) => p && { packedBytes: p.packedBytes, unpackedBytes: p.unpackedBytes, files: p.files, largest: p.entries.slice(0, top) };
	return { results: { thisBuild: summary(ours), previous: summary(previous) }, text, errors, problems };
}
