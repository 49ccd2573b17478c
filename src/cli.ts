import { parseServeArgs, ServeArgs } from './cli/serveArgs';
import { USAGE, UsageError } from './cli/usage';
import { VERSION } from './version';

export async function main(argv: string[]): Promise<number | undefined> {
	const [command, ...rest] = argv;
	if (command === '-h' || command === '--help' || command === 'help') {
		process.stdout.write(USAGE);
		return 0;
	}
	if (command === '-v' || command === '--version') {
		process.stdout.write(`${VERSION}\n`);
		return 0;
	}
	if (command === 'bridge') {
		// Each command is required only when run: in the build, from dist/main.js, which evaluates
		// a module only once it is required (see esbuild.mjs), so a server never evaluates the
		// bridge's MCP client, nor a stdio server the HTTP stack.
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		return (require('./cli/bridgeCommand') as typeof import('./cli/bridgeCommand')).bridgeCommand(rest);
	}
	if (command !== 'serve') {
		process.stderr.write(`${command ? `unknown command "${command}"` : 'no command given'}\n\n${USAGE}`);
		return 2;
	}
	if (rest.includes('-h') || rest.includes('--help')) {
		process.stdout.write(USAGE);
		return 0;
	}
	let args: ServeArgs;
	try {
		args = parseServeArgs(rest);
	} catch (err) {
		if (err instanceof UsageError) {
			process.stderr.write(`error: ${err.message}\n\n${USAGE}`);
			return 2;
		}
		throw err;
	}
	if (args.mode === 'stdio') {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		(require('./cli/serveStdio') as typeof import('./cli/serveStdio')).serveStdio(args);
	} else {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		await (require('./cli/serveHttp') as typeof import('./cli/serveHttp')).serveHttp(args);
	}
	return undefined; // keeps running until a signal or stdin closes
}

if (require.main === module) {
	main(process.argv.slice(2)).then(
		code => {
			if (code !== undefined) {
				process.exitCode = code;
			}
		},
		err => {
			process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
			process.exit(1);
		},
	);
}
