#!/usr/bin/env node
// npm run bench [-- --section reads,scale] [--quick] [--previous REF|PATH|none] [--cli PATH] [--json-only]
//
// Measures this build (dist/cli.js) beside the previous build (by default the one the last round
// shipped: previousBuild.ts) and the anchors (the floor, server-filesystem, the minimal SDK
// server) in one run, section by section; prints each section's tables, then every aim with
// MET or MISSED; writes bench-results/bench-<ISO>.json and bench-results/latest.json. Aims are
// reported, never asserted: the exit code is non-zero only when this build fails somewhere.
// --quick runs every section small, to check that it runs. Each section's own flags: --help.
import { setMaxListeners } from 'node:events';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import { errorText } from '../lib/errorText.js';
import { killAtExit, onInterrupt } from '../lib/processes.js';
import { now, quietListenerWarnings, round } from './measurement.js';
import { LAST_LANDED_BUILD, NO_PREVIOUS, previousBuild } from './previousBuild.js';
import { renderAims } from './report.js';
import { Flags, type AimVerdict, type SectionRun } from './section.js';
import { runNotify } from './notify.js';
import { runPackageSize } from './packageSize.js';
import { runPicker } from './picker.js';
import { runProfile } from './profile.js';
import { runSearch } from './search.js';
import { runSymbols } from './symbols.js';
import { runReads } from './reads.js';
import { runScale } from './scale.js';
import { runServerAlone } from './serverAlone.js';

/** A section as the registry knows it. */
interface SectionEntry { run: SectionRun; flags: string; about: string; byDefault: boolean }

/**
 * The sections, in the order a full run takes them. Adding one is an import above and an entry
 * here: a module exporting `run<Name>(ctx: SectionContext): Promise<SectionReport>` (see
 * section.ts: its flags come in `ctx.flags`, the previous build from `ctx.previousCli()`, and it
 * hands back its results, tables, aims and failures), the flags it reads (for --help, and so a
 * misspelt flag is refused before anything runs), what it measures, and whether a plain
 * `npm run bench` runs it.
 */
const SECTIONS: Record<string, SectionEntry> = {
	reads: { run: runReads, flags: '--files N --binaries N --reads N --reps N --seed N', about: 'listing, first page and reads in both eras over stdio and HTTP, with the anchors', byDefault: true },
	notify: { run: runNotify, flags: '--files N --binaries N --seed N --notify-samples N --burst N --notify-transport stdio|http', about: '`updated` after a write in both eras, and a burst of new files', byDefault: true },
	alone: { run: runServerAlone, flags: '--files N --binaries N --reads N --rounds N --seed N', about: 'the server alone: requests replayed as the SDK clients send them, no client in the loop', byDefault: true },
	scale: { run: runScale, flags: '--sizes N,N --scale-reps N --switch-files N --switch-changed N --editor --vsix PATH --profile DIR --show-picker --settings JSON --min-window-ms N', about: 'generated trees up to 1,000,000 files and a branch switch, headless (or --editor: in the real extension host)', byDefault: true },
	package: { run: runPackageSize, flags: '--top N', about: 'the .vsix: bytes packed and unpacked, files, the largest files, beside the previous build', byDefault: true },
	picker: { run: runPicker, flags: '--picker-files N --runs N --ui', about: 'the picker on 100,000 files in plain Node (or --ui: in the real UI)', byDefault: false },
	search: { run: runSearch, flags: '--search-files N --search-reps N', about: 'text and path search against ripgrep on a tree of real code (100,000 files)', byDefault: false },
	symbols: { run: runSymbols, flags: '--symbol-files N --queries N --skip-ctags', about: 'symbol search against universal-ctags, grammar parse throughput, view=signatures on real code', byDefault: false },
	profile: { run: runProfile, flags: '--files N --reads N --lists N --top N --era 2025|2026-07-28 --transport stdio|http --in-flight N --keep-profile', about: 'where the server CPU of a read and of a listing goes (node --cpu-prof)', byDefault: false },
};

const COMMON_FLAGS = '--section LIST --quick --cli PATH --previous REF|PATH|none --json-only --help';

function usage(): string {
	const lines = ['usage: npm run bench -- [--section NAME,...] [--quick] [--cli PATH] [--previous REF|PATH|none] [--json-only] [the sections\' flags]', '', 'sections (a plain run takes those marked *):'];
	for (const [name, s] of Object.entries(SECTIONS)) lines.push(`  ${s.byDefault ? '*' : ' '} ${name.padEnd(8)} ${s.about}`, `             ${s.flags}`);
	return lines.join('\n');
}

const flagNames = (text: string) => text.match(/--[a-z][a-z0-9-]*/g) ?? [];
/** The flags that take no value: in the usage texts, those not followed by a placeholder. */
const switches = new Set([COMMON_FLAGS, ...Object.values(SECTIONS).map(s => s.flags)].flatMap(text => text.split(' ').filter((word, i, words) => word.startsWith('--') && (words[i + 1] ?? '--').startsWith('--'))));

let flags: Flags;
let selected: string[];
try {
	flags = new Flags(process.argv.slice(2), switches);
	if (flags.has('--help')) {
		process.stdout.write(`${usage()}\n`);
		process.exit(0);
	}
	selected = flags.has('--section') ? flags.text('--section', '').split(',').filter(Boolean) : Object.keys(SECTIONS).filter(name => SECTIONS[name].byDefault);
	const unknownSection = selected.find(name => !(name in SECTIONS));
	if (unknownSection) throw new Error(`there is no section ${unknownSection}; the sections are ${Object.keys(SECTIONS).join(', ')}`);
	const known = new Set([...flagNames(COMMON_FLAGS), ...selected.flatMap(name => flagNames(SECTIONS[name].flags))]);
	const unknownFlag = flags.names().find(name => !known.has(name));
	if (unknownFlag) throw new Error(`${unknownFlag} is not a flag of ${selected.join(', ')} (npm run bench -- --help)`);
} catch (err) {
	process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
	process.exit(2);
}

const quick = flags.has('--quick');
const cli = path.resolve(repoRoot, flags.text('--cli', 'dist/cli.js'));
const previousRef = flags.text('--previous', LAST_LANDED_BUILD);
const started = now();
const log = (message: string) => process.stderr.write(message.startsWith('\n== ') ? `\n[${((now() - started) / 1000).toFixed(1)} s] ${message.slice(1)}\n` : `${message}\n`);
const problems: string[] = [];
const errors: string[] = [];

let previous: { cli: string | null } | undefined;
/** The previous build's CLI, built on first use; a failure to build it is noted and the run goes on without it. */
function previousCli(): string | null {
	if (!previous) {
		previous = { cli: null };
		if (previousRef !== NO_PREVIOUS) {
			try {
				previous.cli = previousBuild(previousRef, log);
			} catch (err) {
				problems.push(`the previous build (${previousRef}) is not measured: ${err instanceof Error ? err.message : String(err)} (--previous REF|PATH names another, --previous none skips it)`);
			}
		}
	}
	return previous.cli;
}

function gitCommit(): string | null {
	try {
		const git = (...args: string[]) => execFileSync('git', args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
		return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--', 'src') ? '+dirty' : ''}`;
	} catch {
		return null;
	}
}

async function main(): Promise<number> {
	onInterrupt();
	setMaxListeners(0); // the SDK's HTTP clients hang many listeners on one AbortSignal
	const warnings = quietListenerWarnings();
	const home = mkdtempSync(path.join(os.tmpdir(), 'mcpwr-bench-home-'));
	killAtExit(() => rmSync(home, { recursive: true, force: true }));
	const startedAt = new Date().toISOString();
	const env = {
		node: process.version, cpus: `${os.cpus().length} x ${os.cpus()[0]?.model ?? '?'}`, memGiB: round(os.totalmem() / 2 ** 30, 1),
		loadAvgAtStart: os.loadavg().map(v => round(v, 2)), loadAvgAtEnd: [] as number[], commit: gitCommit(),
	};
	const sections: Record<string, unknown> = {};
	const texts: string[] = [];
	const aims: AimVerdict[] = [];
	if (!existsSync(cli)) errors.push(`${cli} does not exist (npm run build)`);
	for (const name of errors.length ? [] : selected) {
		log(`\n== section ${name}`);
		try {
			const report = await SECTIONS[name].run({ flags, quick, cli, previousCli, home, log });
			sections[name] = report.results;
			texts.push(report.text);
			aims.push(...report.aims ?? []);
			errors.push(...report.errors ?? []);
			problems.push(...report.problems ?? []);
		} catch (err) {
			errors.push(`section ${name} stopped: ${errorText(err)}`);
			log(`!! section ${name} stopped: ${errorText(err)}`);
		}
	}
	env.loadAvgAtEnd = os.loadavg().map(v => round(v, 2));
	const results = {
		startedAt, durationMs: round(now() - started), env, argv: process.argv.slice(2), quick, cli, previous: { ref: previousRef, cli: previous?.cli ?? null },
		sections, aims, errors, problems, suppressedListenerWarnings: warnings.suppressed,
	};
	const outDir = path.join(repoRoot, 'bench-results');
	mkdirSync(outDir, { recursive: true });
	const json = JSON.stringify(results, null, 2);
	const file = path.join(outDir, `bench-${startedAt.replace(/[:.]/g, '-')}.json`);
	writeFileSync(file, json);
	writeFileSync(path.join(outDir, 'latest.json'), json);
	if (flags.has('--json-only')) {
		process.stdout.write(`${json}\n`);
	} else {
		const out = [
			`MCP Workspace Resources bench${quick ? ' (--quick: sizes too small to judge by)' : ''}: commit ${env.commit ?? '?'}, previous build ${previous === undefined ? '(none asked for)' : previous.cli ? previousRef : 'none'}, ${env.cpus}, node ${env.node}`,
			`load average (1 min) ${env.loadAvgAtStart[0]} at start, ${env.loadAvgAtEnd[0]} at the end: other work on the machine skews the numbers`,
			...texts.flatMap(text => ['', text]),
		];
		if (aims.length) out.push('', 'aims', renderAims(aims));
		if (problems.length) out.push('', 'problems:', ...problems.map(p => `  - ${p}`));
		if (errors.length) out.push('', 'ERRORS:', ...errors.map(e => `  - ${e.split('\n')[0]}`));
		out.push('', `wrote ${path.relative(repoRoot, file)} and bench-results/latest.json (${(results.durationMs / 1000).toFixed(1)} s)`);
		process.stdout.write(`${out.join('\n')}\n`);
	}
	return errors.length ? 1 : 0;
}

// Exit explicitly: the exit hook kills whatever is still registered, so no server outlives the bench.
main().then(code => process.exit(code), err => {
	log(`bench failed: ${errorText(err)}`);
	process.exit(1);
});
