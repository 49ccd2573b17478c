import { Problem } from './ports';

// Problems summed up for a listing or a reader: counts by severity, their words ("2 errors,
// 1 warning") and a short Markdown rendering of a problems resource.

/** How many problems of each severity. */
export interface ProblemCounts {
	errors: number;
	warnings: number;
	information: number;
	hints: number;
}

/** Zero of each severity. */
export function emptyCounts(): ProblemCounts {
	return { errors: 0, warnings: 0, information: 0, hints: 0 };
}

/** Adds `from`'s counts to `into`. */
export function addCounts(into: ProblemCounts, from: ProblemCounts): void {
	into.errors += from.errors;
	into.warnings += from.warnings;
	into.information += from.information;
	into.hints += from.hints;
}

/** The problems' counts by severity. */
export function countProblems(problems: readonly Problem[]): ProblemCounts {
	const counts = emptyCounts();
	for (const p of problems) {
		switch (p.severity) {
			case 'error': counts.errors++; break;
			case 'warning': counts.warnings++; break;
			case 'information': counts.information++; break;
			default: counts.hints++;
		}
	}
	return counts;
}

/** `n` and the word, with an s unless `n` is 1. */
export function plural(n: number, word: string): string {
	return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** "2 errors, 1 warning" (information and hints only when there are some). */
export function describeCounts(c: ProblemCounts): string {
	const parts = [plural(c.errors, 'error'), plural(c.warnings, 'warning')];
	if (c.information > 0) {
		parts.push(`${c.information} info`);
	}
	if (c.hints > 0) {
		parts.push(plural(c.hints, 'hint'));
	}
	return parts.join(', ');
}

/**
 * A short Markdown rendering of a problems resource's JSON (for a picker or chat attachment;
 * reads return JSON only, one content item, so clients do not attach the same problems twice).
 */
export function renderProblemsMarkdown(body: { summary: ProblemCounts & { files?: number }; problems: (Problem & { file: string })[] }, title = 'Problems'): string {
	const files = body.summary.files !== undefined ? ` in ${plural(body.summary.files, 'file')}` : '';
	return [`**${title}**: ${describeCounts(body.summary)}${files}`, ...body.problems.map(p => markdownLine(p.file, p))].join('\n') + '\n';
}

function markdownLine(display: string, p: Problem): string {
	const where = `${display}:${p.range.start.line + 1}:${p.range.start.character + 1}`;
	const origin = [p.source, p.code].filter(x => x !== undefined && x !== '').join(' ');
	// Each run of white space that holds a line break becomes one space. Not /\s*\n\s*/g: that
	// reads a long run without a line break again from each of its characters (quadratic).
	const message = p.message.replace(/\s+/g, run => (run.includes('\n') ? ' ' : run));
	return `- **${p.severity}** \`${where}\` ${message}${origin ? ` (${origin})` : ''}`;
}
