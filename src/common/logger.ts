/** Where diagnostics of the product go: an output channel in VS Code, stderr headless. */
export interface Logger {
	debug(message: string): void;
	info(message: string): void;
	warn(message: string): void;
	error(message: string, err?: unknown): void;
}

export const nullLogger: Logger = {
	debug() {},
	info() {},
	warn() {},
	error() {},
};

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const order: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** Writes timestamped lines to a stream (stderr for the CLI, so stdout stays protocol-only). */
export class StreamLogger implements Logger {
	constructor(
		private readonly write: (line: string) => void,
		private readonly level: LogLevel = 'info',
	) {}

	debug(message: string): void {
		this.log('debug', message);
	}
	info(message: string): void {
		this.log('info', message);
	}
	warn(message: string): void {
		this.log('warn', message);
	}
	error(message: string, err?: unknown): void {
		this.log('error', err === undefined ? message : `${message}: ${describeError(err)}`);
	}

	private log(level: LogLevel, message: string): void {
		if (order[level] >= order[this.level]) {
			this.write(`${new Date().toISOString()} [${level}] ${message}\n`);
		}
	}
}

export function describeError(err: unknown): string {
	if (err instanceof Error) {
		return err.stack ?? `${err.name}: ${err.message}`;
	}
	return String(err);
}
