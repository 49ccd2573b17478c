import * as vscode from 'vscode';
import { Emitter } from '../common/event';
import { DiagnosticsSource, Problem, ProblemSeverity } from '../core/diagnostics/ports';

const SEVERITY: Record<vscode.DiagnosticSeverity, ProblemSeverity> = {
	[vscode.DiagnosticSeverity.Error]: 'error',
	[vscode.DiagnosticSeverity.Warning]: 'warning',
	[vscode.DiagnosticSeverity.Information]: 'information',
	[vscode.DiagnosticSeverity.Hint]: 'hint',
};

/** The problems VS Code knows (every language's diagnostics), for `file:` documents. */
export class VsCodeDiagnostics implements DiagnosticsSource, vscode.Disposable {
	private readonly emitter = new Emitter<readonly string[]>();
	readonly onDidChange = this.emitter.event;
	private readonly subscription = vscode.languages.onDidChangeDiagnostics(e => {
		const paths = e.uris.filter(u => u.scheme === 'file').map(u => u.fsPath);
		if (paths.length > 0) {
			this.emitter.fire(paths);
		}
	});

	all(): readonly (readonly [string, readonly Problem[]])[] {
		return vscode.languages.getDiagnostics()
			.filter(([uri, diagnostics]) => uri.scheme === 'file' && diagnostics.length > 0)
			.map(([uri, diagnostics]) => [uri.fsPath, diagnostics.map(toProblem)] as const);
	}

	get(absPath: string): readonly Problem[] {
		return vscode.languages.getDiagnostics(vscode.Uri.file(absPath)).map(toProblem);
	}

	dispose(): void {
		this.subscription.dispose();
		this.emitter.dispose();
	}
}

function toProblem(d: vscode.Diagnostic): Problem {
	const code = typeof d.code === 'object' ? d.code.value : d.code;
	return {
		severity: SEVERITY[d.severity] ?? 'error',
		range: {
			start: { line: d.range.start.line, character: d.range.start.character },
			end: { line: d.range.end.line, character: d.range.end.character },
		},
		message: d.message,
		...(d.source ? { source: d.source } : {}),
		...(code !== undefined && code !== '' ? { code } : {}),
	};
}
