// The one way a browser check turns its screenshot into a picture the README, the docs or the
// walkthrough show: a palette PNG (libimagequant through sharp, as pngquant does), since the
// walkthrough's pictures ship in the .vsix and the README's are fetched by every reader. A unit
// test (test/unit/pictures.test.ts) reads these calls to prove every shown picture is made here,
// so the destination is always a literal path.
import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { repoRoot } from '../../scripts/bootstrap/repoRoot.mjs';

/**
 * Quality bounds of the quantizer (libimagequant's 0-100): screenshots of the workbench have few
 * colours, and below this text edges start to show bands.
 */
const QUALITY = 90;

/**
 * Writes `test-results/screenshots/<shot>.png` (taken by the check's `screenshot(shot)`) to
 * `destination`, a path from the repository's root such as `media/screenshot-picker.png`,
 * quantized to a palette and compressed.
 */
export async function keepPicture(shot: string, destination: string): Promise<void> {
	const source = path.join(repoRoot, 'test-results', 'screenshots', `${shot}.png`);
	const target = path.join(repoRoot, destination);
	fs.mkdirSync(path.dirname(target), { recursive: true });
	await sharp(source).png({ palette: true, quality: QUALITY, effort: 10, compressionLevel: 9 }).toFile(target);
}
