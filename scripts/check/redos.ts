/**
 * `npm run check:redos`: every regular expression literal in src/ and the ones built at run time
 * for terminal redaction, checked by recheck for super-linear backtracking. Exits 1 naming each
 * vulnerable one with recheck's attack string. Not part of `npm test`: recheck's fuzzer is
 * bounded by wall-clock timeouts, so its answers can vary with the machine's load.
 *
 * A finding is a candidate, not a verdict: measure the attack at the input's real maximum length
 * through the public path (a bounded window such as `{0,2000}` is linear, yet reported), then
 * either fix it or list it in ACCEPTED with the reason.
 */
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { check } from 'recheck';
import ts from 'typescript';
import { repoRoot as root } from '../bootstrap/repoRoot.mjs';

/** Reported by recheck, and why each is no stall. Keyed by `file:/source/`. */
const ACCEPTED = new Map<string, string>([
	['src/core/git/diffFilter.ts:/^Binary files (.*) and (.*) differ$/', 'git prints this line only whole (it ends in " differ"), and then the greedy first group finds the last " and " at once: linear'],
]);

function literals(file: string): { source: string; flags: string; line: number }[] {
	const text = readFileSync(path.join(root, file), 'utf8');
	const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const found: { source: string; flags: string; line: number }[] = [];
	const visit = (node: ts.Node): void => {
		if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
			const literal = node.getText(sourceFile);
			const end = literal.lastIndexOf('/');
			found.push({ source: literal.slice(1, end), flags: literal.slice(end + 1), line: sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1 });
		}
		ts.forEachChild(node, visit);
	};
	visit(sourceFile);
	return found;
}

/** The redaction rules' patterns, built at run time (src/ is bundled, as the extension is). */
async function redactionPatterns(): Promise<readonly { id: string; pattern: RegExp }[]> {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'mwr-redos-'));
	try {
		const outfile = path.join(dir, 'redact.cjs');
		await build({ entryPoints: [path.join(root, 'src/core/terminal/redact.ts')], bundle: true, platform: 'node', format: 'cjs', outfile, logLevel: 'error' });
		return (createRequire(import.meta.url)(outfile) as { REDACTION_PATTERNS: readonly { id: string; pattern: RegExp }[] }).REDACTION_PATTERNS;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

const files = ts.sys.readDirectory(path.join(root, 'src'), ['.ts']).map(f => path.relative(root, f).split(path.sep).join('/'));
const regexes = [
	...files.flatMap(file => literals(file).map(r => ({ ...r, where: `${file}:${r.line}`, key: `${file}:/${r.source}/` }))),
	...(await redactionPatterns()).map(({ id, pattern }) => ({ source: pattern.source, flags: pattern.flags, where: `redaction rule ${id}`, key: `redact:${id}` })),
];
let vulnerable = 0;
for (const r of regexes) {
	const result = await check(r.source, r.flags, { randomSeed: 1 });
	if (result.status === 'vulnerable' && !ACCEPTED.has(r.key)) {
		vulnerable++;
		const attack = result.attack ? ` attack ${result.attack.pattern}` : '';
		console.error(`${r.where}: /${r.source}/${r.flags} is ${result.complexity?.type ?? 'vulnerable'}${attack}`);
	} else if (result.status === 'unknown') {
		console.error(`${r.where}: /${r.source}/${r.flags} could not be checked (${result.error?.kind ?? 'unknown'})`);
	}
}
console.log(`[check:redos] ${regexes.length} regular expressions, ${vulnerable} vulnerable`);
process.exitCode = vulnerable > 0 ? 1 : 0;
