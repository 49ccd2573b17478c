import { Emitter } from '../../src/common/event';
import { DiagnosticsSource, Problem, ProblemSeverity } from '../../src/core/diagnostics/ports';

/** Problems the test sets; `set` fires a change as VS Code would. */
export class FakeDiagnostics implements DiagnosticsSource {
	private readonly emitter = new Emitter<readonly string[]>();
	readonly onDidChange = this.emitter.event;
	private readonly problems = new Map<string, readonly Problem[]>();
	getCalls = 0;

	constructor(initial: Record<string, readonly Problem[]> = {}) {
		for (const [p, list] of Object.entries(initial)) {
			this.problems.set(p, list);
		}
	}

	set(absPath: string, problems: readonly Problem[]): void {
		if (problems.length === 0) {
			this.problems.delete(absPath);
		} else {
			this.problems.set(absPath, problems);
		}
		this.emitter.fire([absPath]);
	}

	all(): readonly (readonly [string, readonly Problem[]])[] {
		return [...this.problems.entries()];
	}

	get(absPath: string): readonly Problem[] {
		this.getCalls++;
		return this.problems.get(absPath) ?? [];
	}

	dispose(): void {
		this.emitter.dispose();
	}
}

export function problem(severity: ProblemSeverity, line: number, message: string, extra: Partial<Problem> = {}): Problem {
	return { severity, message, range: { start: { line, character: 2 }, end: { line, character: 8 } }, ...extra };
}
