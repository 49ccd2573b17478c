// Symbols bench: symbol search at 100,000 files headless against universal-ctags (its index build
// and a lookup, in the same run), the grammars' parse throughput, and how much smaller
// `?view=signatures` is than the file on real code (packages in node_modules), in characters and
// Claude tokens. Runs alone:
//   node --import ./scripts/bootstrap/registerTypeScript.mjs scripts/bench/symbols.ts [--files N] [--queries N] [--skip-ctags]
// It builds dist/ and compiles out/ (the parser and the tokenizer are required from there) when
// either is missing. Aims are reported, never asserted.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import { mapLimited } from '../lib/mapLimited.js';
import { privateServerCache } from '../lib/privateServerCache.js';
import { createRng, now, pick, randInt, round, summarize, type LatencySummary, type Rng } from './measurement.js';
import { BENCH_WORKSPACES } from './workspace.js';
import type { SectionContext, SectionReport } from './section.js';

export interface SymbolsBenchOptions {
	/** Files of the generated workspace (100,000). */
	readonly files: number;
	/** Lookups timed, each by us and by ctags (200). */
	readonly queries: number;
	readonly skipCtags: boolean;
}

export interface SymbolsBenchResult {
	readonly signatures: { package: string; files: number; chars: number; viewChars: number; tokens: number; viewTokens: number; charsSaved: number; tokensSaved: number }[];
	readonly parse: { language: string; files: number; megabytes: number; ms: number; mbPerSecond: number; filesPerSecond: number }[];
	readonly search: {
		files: number; indexMs: number; rssMiB: number | null;
		ours: LatencySummary; ctags: { indexMs: number; tagsMiB: number; lookup: LatencySummary } | null;
		sameAnswers: number;
	};
}

const require = createRequire(import.meta.url);

/** What is measured for `view=signatures` and the parse throughput: real sources, by language. */
const REAL_CODE: { package: string; dir: string; ext: string }[] = [
	{ package: 'zod (TypeScript)', dir: 'node_modules/zod/src', ext: '.ts' },
	{ package: '@azure/msal-common (TypeScript)', dir: 'node_modules/@azure/msal-common/src', ext: '.ts' },
	{ package: 'eslint (JavaScript)', dir: 'node_modules/eslint/lib', ext: '.js' },
	{ package: 'mocha (JavaScript)', dir: 'node_modules/mocha/lib', ext: '.js' },
];

function filesUnder(dir: string, ext: string): string[] {
	const out: string[] = [];
	if (!existsSync(dir)) {
		return out;
	}
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) {
			out.push(...filesUnder(full, ext));
		} else if (entry.name.endsWith(ext) && !/\.d\.[cm]?ts$/.test(entry.name) && !/\.(test|spec)\./.test(entry.name)) {
			out.push(full);
		}
	}
	return out.sort();
}

/** dist/ (the CLI and the grammars) and out/ (the parser and the tokenizer as CommonJS). */
function ensureBuilt(): void {
	if (!existsSync(path.join(repoRoot, 'dist', 'grammars', 'tree-sitter-typescript.wasm.br'))) {
		execFileSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
	}
	if (!existsSync(path.join(repoRoot, 'out', 'src', 'node', 'grammars', 'treeSitterParser.js'))) {
		execFileSync('npm', ['run', 'compile-tests', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
	}
}

async function measureRealCode(): Promise<Pick<SymbolsBenchResult, 'signatures' | 'parse'>> {
	// Typed from the sources, so a change of their shape fails the type check here, not the bench.
	const { TreeSitterParser } = require(path.join(repoRoot, 'out/src/node/grammars/treeSitterParser.js')) as typeof import('../../src/node/grammars/treeSitterParser.js');
	const { signatureView } = require(path.join(repoRoot, 'out/src/core/symbols/signatureView.js')) as typeof import('../../src/core/symbols/signatureView.js');
	const { countTokens } = require(path.join(repoRoot, 'out/src/picker/tokenCount.js')) as { countTokens: (text: string) => number };
	const parser = new TreeSitterParser(path.join(repoRoot, 'dist', 'grammars'));
	const signatures: SymbolsBenchResult['signatures'] = [];
	const parseByLanguage = new Map<string, { files: number; bytes: number; ms: number }>();
	for (const { package: name, dir, ext } of REAL_CODE) {
		const files = filesUnder(path.join(repoRoot, dir), ext);
		if (files.length === 0) {
			continue;
		}
		let chars = 0, viewChars = 0, tokens = 0, viewTokens = 0;
		for (const file of files) {
			const text = readFileSync(file, 'utf8');
			const language = parser.languageOf(file)!;
			await parser.parse(language, text); // the grammar loaded before timing
			const started = now();
			const declarations = await parser.parse(language, text);
			const ms = now() - started;
			const parsed = parseByLanguage.get(language.name) ?? { files: 0, bytes: 0, ms: 0 };
			parseByLanguage.set(language.name, { files: parsed.files + 1, bytes: parsed.bytes + Buffer.byteLength(text), ms: parsed.ms + ms });
			const view = signatureView(text, declarations, language).text;
			chars += text.length;
			viewChars += view.length;
			tokens += countTokens(text);
			viewTokens += countTokens(view);
		}
		signatures.push({
			package: name, files: files.length, chars, viewChars, tokens, viewTokens,
			charsSaved: round(100 * (1 - viewChars / chars), 1)!, tokensSaved: round(100 * (1 - viewTokens / tokens), 1)!,
		});
	}
	const parse = [...parseByLanguage].map(([language, p]) => ({
		language, files: p.files, megabytes: round(p.bytes / 1e6, 2)!, ms: round(p.ms, 0)!,
		mbPerSecond: round(p.bytes / 1e6 / (p.ms / 1000), 2)!, filesPerSecond: round(p.files / (p.ms / 1000), 0)!,
	}));
	return { signatures, parse };
}

// ---------------------------------------------------------------------------------------------
// The generated workspace: small source files in the languages the grammars read, each declaring
// names made from words and the file's number, so lookups have exact, prefix and fuzzy answers.

const WORDS = ['account', 'buffer', 'cache', 'client', 'config', 'cursor', 'event', 'factory', 'graph', 'handler', 'index', 'journal',
	'ledger', 'mapper', 'node', 'order', 'parser', 'queue', 'router', 'session', 'stream', 'token', 'vector', 'widget'];
const cap = (w: string) => w[0].toUpperCase() + w.slice(1);

function sourceFile(n: number, rng: Rng): { ext: string; text: string } {
	const a = pick(rng, WORDS), b = pick(rng, WORDS);
	const type = `${cap(a)}${cap(b)}${n}`;
	const fn = `parse${cap(b)}${n}`;
	const method = `handle${cap(a)}`;
	const roll = randInt(rng, 0, 99);
	if (roll < 40) {
		return { ext: '.ts', text: `import { x } from './x';\n\n/** A ${a} of ${b}s. */\nexport class ${type} {\n\tprivate readonly items: string[] = [];\n\n\t/** Handles one. */\n\t${method}(value: string): number {\n\t\tthis.items.push(value);\n\t\treturn this.items.length;\n\t}\n}\n\nexport interface ${type}Options {\n\treadonly limit: number;\n}\n\n/** Parses a ${b}. */\nexport function ${fn}(text: string): ${type} {\n\tconst out = new ${type}();\n\tout.${method}(text.trim());\n\treturn out;\n}\n\nexport const ${a.toUpperCase()}_${n}_LIMIT = ${n};\n` };
	}
	if (roll < 55) {
		return { ext: '.js', text: `'use strict';\n\n/** A ${a} of ${b}s. */\nclass ${type} {\n\tconstructor() {\n\t\tthis.items = [];\n\t}\n\n\t${method}(value) {\n\t\tthis.items.push(value);\n\t\treturn this.items.length;\n\t}\n}\n\nfunction ${fn}(text) {\n\tconst out = new ${type}();\n\tout.${method}(text.trim());\n\treturn out;\n}\n\nmodule.exports = { ${type}, ${fn} };\n` };
	}
	if (roll < 70) {
		return { ext: '.py', text: `import os\n\n\nclass ${type}:\n    """A ${a} of ${b}s."""\n\n    def __init__(self):\n        self.items = []\n\n    def ${method}(self, value):\n        self.items.append(value)\n        return len(self.items)\n\n\ndef ${fn}(text):\n    """Parses a ${b}."""\n    out = ${type}()\n    out.${method}(text.strip())\n    return out\n` };
	}
	if (roll < 82) {
		return { ext: '.go', text: `package p${n % 100}\n\n// ${type} is a ${a} of ${b}s.\ntype ${type} struct {\n\titems []string\n}\n\n// ${cap(method)} handles one.\nfunc (s *${type}) ${cap(method)}(value string) int {\n\ts.items = append(s.items, value)\n\treturn len(s.items)\n}\n\n// ${cap(fn)} parses a ${b}.\nfunc ${cap(fn)}(text string) *${type} {\n\tout := &${type}{}\n\tout.${cap(method)}(text)\n\treturn out\n}\n` };
	}
	if (roll < 90) {
		return { ext: '.rs', text: `/// A ${a} of ${b}s.\npub struct ${type} {\n    items: Vec<String>,\n}\n\nimpl ${type} {\n    /// Handles one.\n    pub fn ${method}(&mut self, value: &str) -> usize {\n        self.items.push(value.to_string());\n        self.items.len()\n    }\n}\n\n/// Parses a ${b}.\npub fn ${fn}(text: &str) -> ${type} {\n    let mut out = ${type} { items: Vec::new() };\n    out.${method}(text.trim());\n    out\n}\n` };
	}
	if (roll < 96) {
		return { ext: '.java', text: `package demo;\n\n/** A ${a} of ${b}s. */\npublic class ${type} {\n    private final java.util.List<String> items = new java.util.ArrayList<>();\n\n    /** Handles one. */\n    public int ${method}(String value) {\n        items.add(value);\n        return items.size();\n    }\n\n    /** Parses a ${b}. */\n    public static ${type} ${fn}(String text) {\n        ${type} out = new ${type}();\n        out.${method}(text.trim());\n        return out;\n    }\n}\n` };
	}
	return { ext: '.c', text: `#include <stdlib.h>\n\n/* A ${a} of ${b}s. */\nstruct ${a}_${b}_${n} {\n\tint count;\n};\n\n/* Parses a ${b}. */\nint parse_${b}_${n}(const char *text) {\n\tint n = 0;\n\twhile (text[n]) n++;\n\treturn n;\n}\n` };
}

async function ensureWorkspace(files: number): Promise<{ root: string; names: string[] }> {
	const root = path.join(BENCH_WORKSPACES, `symbols-${files}-v1`);
	const rng = createRng(7);
	const plan = Array.from({ length: files }, (_, n) => ({ n, ...sourceFile(n, rng) }));
	const names = plan.map(p => /(?:class|struct|type|pub struct) (\w+)/.exec(p.text)?.[1] ?? '').filter(Boolean);
	const done = path.join(root, '.complete');
	if (!existsSync(done)) {
		rmSync(root, { recursive: true, force: true });
		const started = now();
		await mapLimited(plan, 32, async ({ n, ext, text }) => {
			const dir = path.join(root, `area${n % 20}`, `module${Math.floor(n / 20) % 50}`);
			mkdirSync(dir, { recursive: true });
			writeFileSync(path.join(dir, `file${n}${ext}`), text);
		});
		writeFileSync(done, '');
		process.stderr.write(`generated ${files} files in ${Math.round(now() - started)} ms\n`);
	}
	return { root, names };
}

/** Lookups as an assistant makes them: a whole type name, a function's prefix, a fuzzy abbreviation. */
function lookups(names: readonly string[], count: number): string[] {
	const rng = createRng(11);
	return Array.from({ length: count }, (_, i) => {
		const name = pick(rng, names);
		return i % 3 === 0 ? name : i % 3 === 1 ? `parse${name.replace(/^[A-Z][a-z]+/, '').replace(/\d+$/, '')}` : name.replace(/[aeiou]/g, '').slice(0, 8);
	});
}

async function measureSearch(options: SymbolsBenchOptions): Promise<SymbolsBenchResult['search']> {
	const { root, names } = await ensureWorkspace(options.files);
	const queries = lookups(names, options.queries);
	const home = path.join(BENCH_WORKSPACES, 'symbols-home');
	mkdirSync(home, { recursive: true });
	const cache = privateServerCache();
	const transport = new StdioClientTransport({
		command: process.execPath, args: [path.join(repoRoot, 'dist', 'cli.js'), 'serve', '--root', root, '--stdio', '--log-level', 'warn'],
		env: { ...process.env, ...cache.env, MCP_WORKSPACE_RESOURCES_HOME: home } as Record<string, string>, stderr: 'inherit',
	});
	const client = new Client({ name: 'symbols-bench', version: '1' });
	await client.connect(transport);
	const read = async (q: string) => JSON.parse(((await client.readResource({ uri: `symbols://workspace?q=${encodeURIComponent(q)}` })).contents[0] as { text: string }).text) as { symbols: { name: string; path: string }[]; complete: boolean; note?: string };
	// The first search starts the index: how long until one is complete is the index build.
	const started = now();
	let first = await read(queries[0]);
	while (!first.complete && /still being built/.test(first.note ?? '')) {
		await new Promise(resolve => setTimeout(resolve, 500));
		first = await read(queries[0]);
	}
	const indexMs = now() - started;
	const rss = transport.pid ? Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${transport.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024 : NaN;
	const ours: number[] = [];
	const ourAnswers: string[][] = [];
	for (const q of queries) {
		const t = now();
		const answer = await read(q);
		ours.push(now() - t);
		ourAnswers.push(answer.symbols.map(s => s.name));
	}
	await client.close();
	cache.remove();
	if (options.skipCtags) {
		return { files: options.files, indexMs: round(indexMs, 0)!, rssMiB: round(rss, 0), ours: summarize(ours), ctags: null, sameAnswers: 0 };
	}
	ensureCtags();
	const tags = path.join(BENCH_WORKSPACES, `symbols-${options.files}.tags`);
	const ctagsStarted = now();
	execFileSync('ctags', ['-R', '--fields=+nK', '--extras=-F', '-f', tags, root], { stdio: 'ignore' });
	const ctagsIndexMs = now() - ctagsStarted;
	const lookup: number[] = [];
	let sameAnswers = 0;
	queries.forEach((q, i) => {
		const t = now();
		// readtags: a binary search of the sorted tags file, prefix and case-insensitive (it has no fuzzy match).
		const out = spawnSync('readtags', ['-t', tags, '-i', '-p', '-', q], { encoding: 'utf8' });
		lookup.push(now() - t);
		const theirs = new Set(out.stdout.split('\n').filter(Boolean).map(l => l.split('\t')[0]));
		if ([...theirs].some(name => ourAnswers[i].includes(name)) || (theirs.size === 0 && ourAnswers[i].length === 0)) {
			sameAnswers++;
		}
	});
	const tagsMiB = statSync(tags).size / 1024 / 1024;
	return {
		files: options.files, indexMs: round(indexMs, 0)!, rssMiB: round(rss, 0), ours: summarize(ours),
		ctags: { indexMs: round(ctagsIndexMs, 0)!, tagsMiB: round(tagsMiB, 1)!, lookup: summarize(lookup) }, sameAnswers,
	};
}

function ensureCtags(): void {
	if (spawnSync('ctags', ['--version']).status === 0 && spawnSync('readtags', ['-h']).error === undefined) {
		return;
	}
	process.stderr.write('installing universal-ctags (apt-get)\n');
	execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
	execFileSync('apt-get', ['install', '-y', '-qq', 'universal-ctags'], { stdio: 'inherit' });
}

/** The whole symbols bench; `log` gets a table for people. */
export async function runSymbolsBench(options: SymbolsBenchOptions, log: (line: string) => void = line => process.stdout.write(`${line}\n`)): Promise<SymbolsBenchResult> {
	ensureBuilt();
	const real = await measureRealCode();
	log('view=signatures on real code (Claude tokens):');
	for (const s of real.signatures) {
		log(`  ${s.package.padEnd(34)} ${String(s.files).padStart(4)} files  chars ${s.chars.toLocaleString('en-US').padStart(10)} -> ${s.viewChars.toLocaleString('en-US').padStart(9)} (-${s.charsSaved}%)  tokens ${s.tokens.toLocaleString('en-US').padStart(9)} -> ${s.viewTokens.toLocaleString('en-US').padStart(8)} (-${s.tokensSaved}%)`);
	}
	log('grammar parse throughput (parse and declarations, grammar loaded):');
	for (const p of real.parse) {
		log(`  ${p.language.padEnd(12)} ${p.files} files, ${p.megabytes} MB in ${p.ms} ms: ${p.mbPerSecond} MB/s, ${p.filesPerSecond} files/s`);
	}
	const search = await measureSearch(options);
	log(`symbol search, ${search.files.toLocaleString('en-US')} generated source files, headless (stdio, SDK client):`);
	log(`  ours:  index ${search.indexMs} ms (first search to complete), RSS ${search.rssMiB} MiB; lookup p50 ${round(search.ours.p50 ?? NaN, 2)} ms, p90 ${round(search.ours.p90 ?? NaN, 2)} ms`);
	if (search.ctags) {
		log(`  ctags: index ${search.ctags.indexMs} ms (ctags -R, tags ${search.ctags.tagsMiB} MiB); lookup (readtags -i -p) p50 ${round(search.ctags.lookup.p50 ?? NaN, 2)} ms, p90 ${round(search.ctags.lookup.p90 ?? NaN, 2)} ms`);
		log(`  lookups where ctags' answer shares a name with ours: ${search.sameAnswers} of ${options.queries}`);
	}
	const result = { ...real, search };
	const dir = path.join(repoRoot, 'bench-results');
	mkdirSync(dir, { recursive: true });
	writeFileSync(path.join(dir, 'symbols-latest.json'), `${JSON.stringify({ at: new Date().toISOString(), options, ...result }, null, 2)}\n`);
	return result;
}

/** The `symbols` section of `npm run bench`: the same measurements, its lines as the section's text. */
export async function runSymbols(ctx: SectionContext): Promise<SectionReport> {
	const { flags, quick } = ctx;
	const options: SymbolsBenchOptions = {
		files: flags.number('--symbol-files', quick ? 2000 : 100_000, 1),
		queries: flags.number('--queries', quick ? 20 : 200, 1),
		skipCtags: flags.has('--skip-ctags'),
	};
	const lines: string[] = [];
	const result = await runSymbolsBench(options, line => { lines.push(line); ctx.log(line); });
	const { ours, ctags } = result.search;
	return {
		results: result,
		text: ['== symbols', ...lines].join('\n'),
		aims: [{
			aim: 'symbol search p50 below universal-ctags\' lookup',
			where: `headless, ${options.files.toLocaleString('en-US')} files`,
			unit: 'ms',
			value: ours.p50,
			anchor: { name: 'readtags', value: ctags?.lookup.p50 },
			met: typeof ours.p50 !== 'number' || typeof ctags?.lookup.p50 !== 'number' ? null : ours.p50 <= ctags.lookup.p50,
		}],
	};
}

function parseArgs(argv: readonly string[]): SymbolsBenchOptions {
	const value = (flag: string, fallback: number) => {
		const i = argv.indexOf(flag);
		return i >= 0 ? Number(argv[i + 1]) : fallback;
	};
	return { files: value('--files', 100_000), queries: value('--queries', 200), skipCtags: argv.includes('--skip-ctags') };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
	runSymbolsBench(parseArgs(process.argv.slice(2))).then(() => process.exit(0), err => {
		process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
		process.exit(1);
	});
}
