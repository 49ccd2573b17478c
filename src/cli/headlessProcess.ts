import { StreamLogger } from '../common/logger';
import { ProviderRegistry } from '../core/registry';
import { gitUserConfig } from '../node/gitUserConfig';
import { createHeadlessRegistry } from '../node/headless';
import { ServeArgs } from './serveArgs';

/** What both ways of serving share: the registry, the log, and one orderly exit. */
export interface HeadlessProcess {
	readonly registry: ProviderRegistry;
	readonly log: StreamLogger;
	/** Runs at exit, the last one added first. */
	onStop(cleanup: () => Promise<void> | void): void;
	stop(code: number): Promise<void>;
}

/** The headless host's registry on the given folders; SIGINT and SIGTERM end the process cleanly, a second one at once. */
export function startHeadlessProcess(args: ServeArgs): HeadlessProcess {
	const log = new StreamLogger(line => process.stderr.write(line), args.logLevel);
	const { registry } = createHeadlessRegistry({ ...args, gitUser: gitUserConfig(), log });
	const cleanups: (() => Promise<void> | void)[] = [];
	let stopping = false;
	const stop = async (code: number) => {
		if (stopping) {
			return;
		}
		stopping = true;
		for (const cleanup of cleanups.reverse()) {
			try {
				await cleanup();
			} catch (err) {
				log.error('shutdown step failed', err);
			}
		}
		registry.dispose();
		process.exit(code);
	};
	const onSignal = (signal: NodeJS.Signals) => {
		if (stopping) {
			// Asked twice: a shutdown step is stuck (a lock folder that never gets made, as under
			// /proc; a peer that never answers). The next start cleans what is left behind.
			log.warn(`${signal} again: stopping now, without finishing the shutdown`);
			process.exit(1);
		}
		log.info(`${signal}: stopping (send it again to stop at once)`);
		void stop(0);
	};
	process.on('SIGINT', onSignal);
	process.on('SIGTERM', onSignal);
	return { registry, log, onStop: cleanup => cleanups.push(cleanup), stop };
}
