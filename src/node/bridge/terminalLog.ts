import { Logger } from '../../common/logger';

/**
 * A logger for the user's terminal or a client's log file: at most `burst` lines per `windowMs`,
 * then one line saying how many were dropped.
 */
export class RateLimitedLogger implements Logger {
	private windowStart = 0;
	private count = 0;
	private dropped = 0;

	constructor(private readonly inner: Logger, private readonly burst = 20, private readonly windowMs = 10_000, private readonly now = () => Date.now()) {}

	debug(message: string): void {
		this.emit(() => this.inner.debug(message));
	}
	info(message: string): void {
		this.emit(() => this.inner.info(message));
	}
	warn(message: string): void {
		this.emit(() => this.inner.warn(message));
	}
	error(message: string, err?: unknown): void {
		this.emit(() => this.inner.error(message, err));
	}

	private emit(write: () => void): void {
		const now = this.now();
		if (now - this.windowStart >= this.windowMs) {
			if (this.dropped > 0) {
				this.inner.warn(`${this.dropped} log line(s) dropped to keep the terminal readable`);
			}
			this.windowStart = now;
			this.count = 0;
			this.dropped = 0;
		}
		if (this.count < this.burst) {
			this.count++;
			write();
		} else {
			this.dropped++;
		}
	}
}

/**
 * Replaces Node's default warning printer in the bridge process: MaxListenersExceededWarning
 * (SDK v1's HTTP client flooded it under load; v2's does not, see reconnectingClient.ts) is reported once, every
 * other warning still goes to the log, rate-limited with everything else.
 */
export function installWarningFilter(log: Logger): void {
	let listenerWarnings = 0;
	process.removeAllListeners('warning');
	process.on('warning', warning => {
		if (warning.name === 'MaxListenersExceededWarning') {
			if (listenerWarnings++ === 0) {
				log.debug(`${warning.name}: ${warning.message} (reported once)`);
			}
			return;
		}
		log.warn(`${warning.name}: ${warning.message}`);
	});
}
