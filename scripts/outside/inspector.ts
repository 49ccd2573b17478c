// MCP Inspector CLI against the headless host in each protocol era it offers (`--protocol-era
// legacy|auto|modern`; ad-hoc targets default to legacy): resources/list, resources/read and
// resources/templates/list over Streamable HTTP (with the bearer token), over stdio
// (`cli.js serve --stdio`) and through the bridge (`cli.js bridge`).
//
// Which era answered is visible in a read: 2026-07-28 results carry the caching hints (`ttlMs`,
// `cacheScope`), 2025 results never do, and the Inspector prints a read's result as it came. So a
// read in `modern` (pinned: no fallback) and in `auto` (probes server/discover first; our server
// offers 2026-07-28, so auto must land there) must show them, and one in `legacy` must not. The
// Inspector prints lists as its SDK aggregates them, hints dropped, so lists prove the era only
// through `modern` connecting at all.
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { mapLimited } from '../lib/mapLimited.js';
import { privateServerCache } from '../lib/privateServerCache.js';
import type { OutsideTools } from './context.js';

/** What the Inspector printed for one call: the fields the checks look at. */
interface InspectorOutput {
	resources?: { name: string }[];
	contents?: { text?: string }[];
	resourceTemplates?: { uriTemplate: string }[];
	ttlMs?: unknown;
	cacheScope?: unknown;
}

/** How the Inspector reaches the host: arguments before and after its own. */
interface InspectorTarget { before: string[]; after: string[] }

/** One call's check of the output: an error string, or ''. */
type OutputCheck = (out: InspectorOutput) => string;

interface InspectorCall { label: string; era: string; target: InspectorTarget; method: string; extra: string[]; check: OutputCheck }

interface InspectorContext extends OutsideTools {
	fixture: string;
	/** The host's MCP_WORKSPACE_RESOURCES_HOME. */
	home: string;
	host: { url: string; token: string };
}

export const INSPECTOR_ERAS = ['legacy', 'auto', 'modern'];
const PARALLEL = 4; // each call is a Node 22 process, plus a server for stdio targets: 2 cores here

/** An error string when the result's caching hints do not match the era asked for, else ''. */
function eraProblem(era: string, out: InspectorOutput): string {
	const hinted = Object.hasOwn(out, 'ttlMs') || Object.hasOwn(out, 'cacheScope');
	if (era === 'legacy') {
		return hinted ? `a 2025 result carries caching hints (ttlMs ${out.ttlMs}, cacheScope ${out.cacheScope})` : '';
	}
	if (typeof out.ttlMs !== 'number' || !Number.isInteger(out.ttlMs) || out.ttlMs < 0 || out.cacheScope !== 'private') {
		return `expected a 2026-07-28 result with integer ttlMs and cacheScope "private" (workspace content), got ttlMs ${JSON.stringify(out.ttlMs)}, cacheScope ${JSON.stringify(out.cacheScope)}`;
	}
	return '';
}

export async function inspectorChecks(ctx: InspectorContext): Promise<void> {
	const cli = path.join(ctx.root, 'dist', 'cli.js');
	const readme = pathToFileURL(path.join(ctx.fixture, 'README.md')).href;
	// The stdio servers' search cache: named, since which variables the Inspector passes on is its own business.
	const cache = privateServerCache();
	const targets: Record<string, InspectorTarget> = {
		http: { before: [ctx.host.url, '--transport', 'http', '--header', `Authorization: Bearer ${ctx.host.token}`], after: [] },
		stdio: {
			before: ['--transport', 'stdio', '-e', `MCP_WORKSPACE_RESOURCES_HOME=${ctx.home}`, '-e', `XDG_CACHE_HOME=${cache.env.XDG_CACHE_HOME}`],
			after: ['--', process.execPath, cli, 'serve', '--root', ctx.fixture, '--stdio', '--log-level', 'warn'],
		},
		bridge: {
			before: ['--transport', 'stdio', '-e', `MCP_WORKSPACE_RESOURCES_HOME=${ctx.home}`],
			after: ['--', process.execPath, cli, 'bridge', '--workspace', ctx.fixture],
		},
	};
	const methods: [string, string[], OutputCheck][] = [
		['resources/list', [], out => {
			const names = (out.resources ?? []).map(r => r.name);
			return names.includes('README.md') && names.includes('src/index.ts') && !names.includes('.env') ? '' : `unexpected resources: ${names.join(', ')}`;
		}],
		['resources/read', ['--uri', readme], out =>
			out.contents?.[0]?.text === '# Outside checks\n' ? '' : `unexpected contents: ${JSON.stringify(out).slice(0, 200)}`],
		['resources/templates/list', [], out =>
			out.resourceTemplates?.some(t => t.uriTemplate === 'file:///{+path}') ? '' : `unexpected templates: ${JSON.stringify(out).slice(0, 200)}`],
	];
	const calls: InspectorCall[] = [];
	for (const [label, target] of Object.entries(targets)) {
		for (const era of INSPECTOR_ERAS) {
			for (const [method, extra, check] of methods) {
				calls.push({ label: `${label} ${era}`, era, target, method, extra, check });
			}
		}
	}
	const problems = await mapLimited(calls, PARALLEL, c => call(ctx, c)).finally(() => cache.remove());
	calls.forEach((c, i) => ctx.record(`inspector ${c.label}`, c.method, !problems[i], problems[i]));
}

/** One Inspector CLI call; resolves with an error string or ''. */
async function call(ctx: InspectorContext, { label, era, target, method, extra, check }: InspectorCall): Promise<string> {
	const out = path.join(ctx.tmp, `inspector-${label.replace(/\W+/g, '-')}-${method.replace(/\W+/g, '-')}.json`);
	const args = [ctx.inspector, '--cli', ...target.before, '--protocol-era', era, '--method', method, ...extra, '--format', 'json', '--output', out, ...target.after];
	// HOME is contained: the Inspector keeps a catalog and client state under ~/.mcp-inspector.
	const result = await ctx.run(ctx.node22, args, {
		cwd: ctx.tmp,
		env: { ...process.env, HOME: path.join(ctx.tmp, 'inspector-home'), PATH: `${path.dirname(ctx.node22)}${path.delimiter}${process.env.PATH}` },
	});
	const output = ctx.readJson(out) as InspectorOutput | undefined;
	let problem = result.code !== 0 ? `exit ${result.code}: ${(result.stderr || result.stdout).trim().split('\n').slice(-3).join(' | ')}` : '';
	if (!problem) {
		problem = output ? check(output) || (method === 'resources/read' ? eraProblem(era, output) : '') : 'no output file';
	}
	if (ctx.verbose || problem) {
		console.log(`    inspector ${label} ${method}: ${JSON.stringify(output ?? result.stdout).slice(0, 400)}`);
	}
	return problem;
}
