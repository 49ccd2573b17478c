/**
 * How a command line the user pastes into a terminal is written on the machine the extension
 * host (and so the CLI and the bridge) runs on. POSIX shells on Linux and macOS; on Windows,
 * PowerShell (the default terminal of VS Code and Windows Terminal), quoted so that the common
 * case (paths with spaces, the bearer header) also reads right in cmd.exe.
 */
export interface ShellSyntax {
	/** `value` as one word of a command line. */
	quote(value: string): string;
	/** A line that sets environment variable `name` to `value` for the commands run after it. */
	setVariable(name: string, value: string): string;
	/** The language of an editor showing these lines. */
	readonly language: 'shellscript' | 'powershell';
}

const POSIX: ShellSyntax = {
	quote: value => (/^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`),
	setVariable: (name, value) => `export ${name}=${POSIX.quote(value)}`,
	language: 'shellscript',
};

const POWERSHELL: ShellSyntax = {
	quote: value => {
		if (/^[\w@+=:,./\\-]+$/.test(value)) {
			return value;
		}
		// Double quotes read the same in PowerShell and cmd.exe unless the value holds what either
		// expands or ends a string with; then PowerShell's literal single quotes.
		return /["$`%]/.test(value) ? `'${value.replace(/'/g, `''`)}'` : `"${value}"`;
	},
	setVariable: (name, value) => {
		// An assignment's right side must be a string: a bare word would run as a command.
		const quoted = POWERSHELL.quote(value);
		return `$env:${name} = ${quoted.startsWith('"') || quoted.startsWith(`'`) ? quoted : `"${quoted}"`}`;
	},
	language: 'powershell',
};

/** The shell syntax for a platform (`process.platform` of the extension host or the CLI). */
export function shellFor(platform: NodeJS.Platform): ShellSyntax {
	return platform === 'win32' ? POWERSHELL : POSIX;
}
