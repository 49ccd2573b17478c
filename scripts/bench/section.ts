// What a section of `npm run bench` is given and hands back (bench.ts runs them), and the flags
// it reads. A section measures one thing (reads, notifications, scale...) against this build's
// anchors and the previous build, in the same run, and says which aims it met.

/** The flags of a run: `--name value`, `--name=value`, or a bare `--name` for those that take no value (`switches`). */
export class Flags {
	private readonly values = new Map<string, string | true>();

	constructor(argv: readonly string[], switches: ReadonlySet<string> = new Set()) {
		for (let i = 0; i < argv.length; i++) {
			const arg = argv[i];
			if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg} (flags are --name value)`);
			const eq = arg.indexOf('=');
			const name = eq > 0 ? arg.slice(0, eq) : arg;
			if (switches.has(name)) {
				if (eq > 0) throw new Error(`${name} takes no value`);
				this.values.set(name, true);
			} else if (eq > 0) {
				this.values.set(name, arg.slice(eq + 1));
			} else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) {
				this.values.set(name, argv[++i]);
			} else {
				this.values.set(name, true);
			}
		}
	}

	/** Every flag given, by name. */
	names(): string[] {
		return [...this.values.keys()];
	}

	has(name: string): boolean {
		return this.values.has(name);
	}

	text(name: string, fallback: string): string;
	text(name: string, fallback?: string): string | undefined;
	text(name: string, fallback?: string): string | undefined {
		const v = this.values.get(name);
		if (v === true) throw new Error(`${name} needs a value`);
		return v ?? fallback;
	}

	/** A whole number (`100_000` and `100,000` read as 100000), at least `min`. */
	number(name: string, fallback: number, min = 0): number {
		const v = this.text(name);
		if (v === undefined) return fallback;
		const n = Number(v.replace(/[_,]/g, ''));
		if (!Number.isInteger(n) || n < min) throw new Error(`${name} needs a whole number of at least ${min}, got ${v}`);
		return n;
	}

	/** A comma-separated list of whole numbers. */
	numbers(name: string, fallback: readonly number[], min = 1): number[] {
		const v = this.text(name);
		if (v === undefined) return [...fallback];
		const list = v.split(',').map(s => Number(s.replace(/_/g, '')));
		if (list.length === 0 || list.some(n => !Number.isInteger(n) || n < min)) throw new Error(`${name} takes whole numbers of at least ${min}, comma-separated; got ${v}`);
		return list;
	}

	/** One of `choices`. */
	choice<T extends string>(name: string, choices: readonly T[], fallback: T): T {
		const v = this.text(name, fallback);
		if (!(choices as readonly string[]).includes(v)) throw new Error(`${name} is one of ${choices.join(', ')}; got ${v}`);
		return v as T;
	}
}

/** An aim (one a user feels), judged on one measurement, beside the previous build's and an anchor's. */
export interface AimVerdict {
	/** The aim, e.g. "read p50 <= 1 ms". */
	aim: string;
	/** Where it was measured, e.g. "stdio, 2026-07-28, 20,000 files". */
	where: string;
	unit: string;
	value: number | null | undefined;
	previous?: number | null;
	/** An anchor the aim names or that puts the value in proportion (server-filesystem, the minimal SDK server). */
	anchor?: { name: string; value: number | null | undefined };
	/** null: not measured (a failure, or the anchor it compares with is missing). */
	met: boolean | null;
}

/** What a section is given. */
export interface SectionContext {
	/** Its own flags (read with a default, `quick ? small : full`); bench.ts refuses a flag no selected section names. */
	readonly flags: Flags;
	/** --quick: small sizes, one repetition: checks that the section runs, measures nothing worth keeping. */
	readonly quick: boolean;
	/** This build's CLI (dist/cli.js unless --cli). */
	readonly cli: string;
	/** The previous build's CLI, built on first call (null: --previous none, or it could not be built, which is noted). */
	previousCli(): string | null;
	/** A lock-file home for the servers it starts (MCP_WORKSPACE_RESOURCES_HOME), removed after the run. */
	readonly home: string;
	/** Progress on stderr. */
	log(message: string): void;
}

/** What a section hands back. */
export interface SectionReport {
	/** Written to the result file under the section's name. */
	results: unknown;
	/** Its tables, printed once every section has run. */
	text: string;
	/** The aims it judged, printed together at the end. */
	aims?: AimVerdict[];
	/** Failures of this build: any makes the exit code non-zero. */
	errors?: string[];
	/** Things worth a look that are not this build's failures (the previous build's, odd counts). */
	problems?: string[];
}

/** A section: `npm run bench -- --section NAME`. */
export type SectionRun = (ctx: SectionContext) => Promise<SectionReport>;
