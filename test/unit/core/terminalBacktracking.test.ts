import * as assert from 'node:assert/strict';
import { Emitter } from '../../../src/common/event';
import { ProviderRegistry } from '../../../src/core/registry';
import { cappedCommandLine, OUTPUT_HEAD_CHARS, OUTPUT_TAIL_CHARS, OutputBuffer } from '../../../src/core/terminal/outputBuffer';
import { TerminalProvider } from '../../../src/core/terminal/terminalProvider';
import { FakeTerminals } from '../../fakes/fakeTerminals';
import { connectInMemory, ConnectedClient } from '../../helpers/harness';
import { readJson } from '../../helpers/readJson';

/** As many commands as the editor keeps per terminal (vsCodeTerminals.ts): one read of `commands` redacts them all. */
const COMMANDS_PER_TERMINAL = 10;
/** A command line as long as a pasted script: the editor keeps its head and tail, and they are redacted too. */
const COMMAND_LINE_CHARS = 256 * 1024;
/** Output dropped between the head and the tail the cap keeps. */
const CUT_CHARS = 4096;

/** `chars` characters: `start`, then `unit` over and over. */
function fill(chars: number, unit: string, start = ''): string {
	return (start + unit.repeat(Math.ceil(chars / unit.length))).slice(0, chars);
}

/**
 * Terminal output is whatever a command printed (a test's log, a server's response, a file `cat`
 * showed), and a command line is whatever was run (a pasted script, an agent's command). Each
 * case is text shaped against one redaction rule, which a backtracking regular expression read
 * in quadratic time: 0.1 to 0.7 s per command at the output cap, and a minute or more for one
 * read of a terminal's history with long command lines, the extension host stalled throughout.
 * Each output ends with a real credential of the rule's kind, which must still be found.
 */
const CASES: { rule: string; printed: (chars: number) => string; secret: string; redacted: string }[] = [
	{
		rule: 'secret-assignment (a long upper-case name holding TOKEN again and again)',
		printed: chars => fill(chars, 'TOKEN'),
		secret: '\nAPI_TOKEN=tok-123',
		redacted: '\nAPI_TOKEN=[REDACTED:secret-assignment]',
	},
	{
		rule: 'url-password (a long run of would-be scheme names)',
		printed: chars => fill(chars, 'a-'),
		secret: '\nredis://:pw-123@localhost:6379',
		redacted: '\nredis://:[REDACTED:url-password]@localhost:6379',
	},
	{
		rule: 'credential-header (a header name holding "token" again and again)',
		printed: chars => fill(chars, 'token-', '-H '),
		secret: '\n-H \'X-Token: tok-123\'',
		redacted: '\n-H \'X-Token: [REDACTED:credential-header]\'',
	},
	{
		rule: 'curl-user (a curl flag of many letters u)',
		printed: chars => fill(chars, 'u', 'curl -'),
		secret: '\ncurl -u bob:pw-123 https://x',
		redacted: '\ncurl -u bob:[REDACTED:curl-user] https://x',
	},
];

describe('terminal redaction in linear time (output shaped against each rule, at the output cap, through an MCP client)', () => {
	let terminals: FakeTerminals;
	let registry: ProviderRegistry;
	let conn: ConnectedClient;

	beforeEach(async () => {
		terminals = new FakeTerminals();
		registry = new ProviderRegistry([new TerminalProvider(terminals, { get: () => true, onDidChange: new Emitter<void>().event }, { throttleMs: 10 })],
			{ debounceMs: 5, maxDelayMs: 20, listChangedIntervalMs: 0 });
		conn = await connectInMemory(registry);
	});
	afterEach(async () => {
		await conn.close();
		registry.dispose();
	});

	for (const [i, { rule, printed, secret, redacted }] of CASES.entries()) {
		it(rule, async () => {
			terminals.open(i + 1, 'bash');
			// The command printed more than the cap keeps: a head and a tail each as long as they can be.
			const buffer = new OutputBuffer();
			buffer.append(printed(OUTPUT_HEAD_CHARS));
			buffer.append('\n'.repeat(CUT_CHARS));
			buffer.append(printed(OUTPUT_TAIL_CHARS - secret.length) + secret);
			const output = buffer.snapshot();
			assert.ok(output.cut, 'the output filled the cap');
			const commandLine = cappedCommandLine(printed(COMMAND_LINE_CHARS));
			for (let n = 0; n < COMMANDS_PER_TERMINAL; n++) {
				terminals.run(i + 1, { commandLine, output });
			}
			const history = await readJson(conn, `terminal://${i + 1}/commands`) as { commands: { commandLine: string; output: string }[] };
			assert.equal(history.commands.length, COMMANDS_PER_TERMINAL);
			for (const command of history.commands) {
				assert.ok(!command.commandLine.includes('[REDACTED'), 'nothing in the command line looks like a credential');
				assert.ok(command.commandLine.startsWith(commandLine.text.slice(0, 100)) && command.commandLine.endsWith(commandLine.text.slice(-100)));
				assert.ok(command.output.endsWith(redacted), command.output.slice(-200));
				assert.ok(!command.output.includes('pw-123') && !command.output.includes('tok-123'));
			}
		});
	}
});
