import * as assert from 'node:assert/strict';
import { Emitter } from '../../../src/common/event';
import { ProviderRegistry } from '../../../src/core/registry';
import { cappedCommandLine, COMMAND_LINE_HEAD_CHARS, OUTPUT_HEAD_CHARS, OUTPUT_TAIL_CHARS, OutputBuffer } from '../../../src/core/terminal/outputBuffer';
import { redactSecrets } from '../../../src/core/terminal/redact';
import { TerminalProvider } from '../../../src/core/terminal/terminalProvider';
import { FakeTerminals } from '../../fakes/fakeTerminals';
import { connectInMemory, ConnectedClient, errorOf } from '../../helpers/harness';
import { readJson } from '../../helpers/readJson';

// Built from pieces so no scanner mistakes this file for a leak.
const GITHUB_TOKEN = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const SLACK_TOKEN = 'xoxb-' + '123456789012-1234567890123-abcdefghijABCDEFGHIJabcd';
const ANTHROPIC_KEY = 'sk-ant-api03-' + 'x'.repeat(93) + 'AA';
// Not AWS's documented example key, which secretlint deliberately passes over.
const AWS_SECRET_KEY = 'dkryFMT07cjqxELS' + 'Z6bipwDKRY5ahovCJQX4+gnu';
const PRIVATE_KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----';

describe('terminal output redaction', () => {
	it('redacts well-known token formats by secretlint\'s recommended rules', async () => {
		const out = await redactSecrets(`token ${GITHUB_TOKEN}\nslack ${SLACK_TOKEN}\nkey ${ANTHROPIC_KEY}\n`);
		assert.ok(!out.includes(GITHUB_TOKEN) && !out.includes(SLACK_TOKEN) && !out.includes(ANTHROPIC_KEY), out);
		assert.match(out, /token \[REDACTED:github\]\nslack \[REDACTED:slack\]\nkey \[REDACTED:anthropic\]\n/);
	});

	it('redacts private key blocks, Authorization values, AWS key ids and secret assignments, keeping what frames them', async () => {
		const text = [
			'$ cat id_ed25519', PRIVATE_KEY, 'done',
			'> Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc',
			'curl -H "authorization: token abc123def" https://x',
			'AWS AKIA' + 'IOSFODNN7EXAMPLE here',
			'export NPM_TOKEN=npm_secretvalue123 DB_PASSWORD="p a s s"',
		].join('\n');
		const out = await redactSecrets(text);
		assert.equal(out, [
			'$ cat id_ed25519', '[REDACTED:private-key]', 'done',
			'> Authorization: Bearer [REDACTED:authorization]',
			'curl -H "authorization: token [REDACTED:authorization]" https://x',
			'AWS [REDACTED:aws-access-key-id] here',
			'export NPM_TOKEN=[REDACTED:secret-assignment] DB_PASSWORD=[REDACTED:secret-assignment]',
		].join('\n'));
	});

	it('redacts the whole of an AWS secret key as an AWS credentials file prints it, wherever it appears again', async () => {
		// secretlint reports this finding from the start of its label, as long as the key: the key's end fell outside.
		const out = await redactSecrets(`$ cat ~/.aws/credentials\naws_secret_access_key = ${AWS_SECRET_KEY}\n$ echo $KEY\n${AWS_SECRET_KEY}\n`);
		const fragments = [...Array(AWS_SECRET_KEY.length - 7).keys()].map(i => AWS_SECRET_KEY.slice(i, i + 8)).filter(f => out.includes(f));
		assert.deepEqual(fragments, [], out);
		assert.equal(out, '$ cat ~/.aws/credentials\n[REDACTED:aws]\n$ echo $KEY\n[REDACTED:aws]\n');
	});

	it('redacts the password of a URL of any scheme, with any characters, keeping the user and the host', async () => {
		const out = await redactSecrets([
			'REDIS_URL=redis://:s3cr3t-Redis-pw@localhost:6379/0',
			'amqp://guest:Rabbit-pw-2024@rabbit:5672',
			'https://deploy:p@ss$w0rd!%21@localhost:8080/hook',
			'http_proxy=http://me:Proxy.Pw.99@proxy:3128',
		].join('\n'));
		assert.equal(out, [
			'REDIS_URL=redis://:[REDACTED:url-password]@localhost:6379/0',
			'amqp://guest:[REDACTED:url-password]@rabbit:5672',
			'https://deploy:[REDACTED:url-password]@localhost:8080/hook',
			'http_proxy=http://me:[REDACTED:url-password]@proxy:3128',
		].join('\n'));
	});

	it('redacts Google API keys, which the preset\'s GCP rule (service account keys) does not find', async () => {
		const key = 'AIza' + 'SyB-x1y2z3_A4b5C6d7E8f9G0h1I2j3K4l5';
		assert.equal(await redactSecrets(`curl "https://maps.googleapis.com/x?key=${key}"`), 'curl "https://maps.googleapis.com/x?key=[REDACTED:google-api-key]"');
	});

	it('redacts Stripe, Cloudflare and Tailscale keys, which the preset of the Node 20 line lacks', async () => {
		const stripe = 'sk_' + 'live_' + '51Hx7aBcDeFgHiJkLmNoPqRsTu';
		const cloudflare = 'cfut_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0' + '0a1b2c3d';
		const tailscale = 'tskey-' + 'auth-' + 'kQ1w2E3r4CNTRL-' + 'Zx9Yw8Vu7Ts6Rq5Po4Nm3';
		const out = await redactSecrets([`STRIPE=${stripe} ok`, `cf ${cloudflare}`, `$ tailscale up --authkey ${tailscale}`, 'desk_live_cheap and tskey-less'].join('\n'));
		assert.equal(out, ['STRIPE=[REDACTED:stripe] ok', 'cf [REDACTED:cloudflare]', '$ tailscale up --authkey [REDACTED:tailscale]', 'desk_live_cheap and tskey-less'].join('\n'));
	});

	it('redacts a private key whose end was cut off, and leaves ordinary output alone', async () => {
		assert.equal(await redactSecrets('x\n-----BEGIN RSA PRIVATE KEY-----\nMIIE'), 'x\n[REDACTED:private-key]');
		const plain = 'npm test\n  316 passing (51s)\nexit 0\nauthor: me, tokens: 12\n';
		assert.equal(await redactSecrets(plain), plain);
	});

	it('redacts what is left of a private key whose start the output cap dropped (its END line and the key lines before it)', async () => {
		// The tail of an RSA key holds its CRT parameters, enough to factor the modulus.
		const marker = '\n[... 5,000 characters of output cut here ...]\n';
		const tail = 'Vz2gtcnNhAAAAAwEAAQAAAQEAw/+9\nNhAAAAAwEAAQ==\n-----END RSA PRIVATE KEY-----\n$ done';
		assert.equal(await redactSecrets(`kept head${marker}${tail}`), `kept head${marker}[REDACTED:private-key]\n$ done`);
		// A key printed inside JSON (a service account file): one line, `\n` escapes.
		const json = 'AwEAAQ==\\n-----END PRIVATE KEY-----\\n",\n  "client_email": "x"';
		assert.equal(await redactSecrets(`head${marker}${json}`), `head${marker}[REDACTED:private-key]\\n",\n  "client_email": "x"`);
	});

	it('redacts credentials given on a command line: curl -u, mysql -p, --password, PGPASSWORD, credential headers', async () => {
		const cases: [string, string][] = [
			['$ curl -u alice:s3cr3t https://api.example.com', '$ curl -u alice:[REDACTED:curl-user] https://api.example.com'],
			['$ curl --user alice:s3cr3t https://x', '$ curl --user alice:[REDACTED:curl-user] https://x'],
			['$ curl --user=alice:s3cr3t https://x', '$ curl --user=alice:[REDACTED:curl-user] https://x'],
			['$ curl -ualice:s3cr3t https://x', '$ curl -ualice:[REDACTED:curl-user] https://x'],
			['$ curl -su \'bob:two words\' https://x', '$ curl -su \'bob:[REDACTED:curl-user]\' https://x'],
			['$ curl -U proxy:pw -x http://p https://x', '$ curl -U proxy:[REDACTED:curl-user] -x http://p https://x'],
			['$ mysql -u root -pS3cret shop', '$ mysql -u root -p[REDACTED:mysql-password] shop'],
			['$ mysqldump --password=S3cret shop', '$ mysqldump --password=[REDACTED:password-option] shop'],
			['$ wget --http-password wpw https://x', '$ wget --http-password [REDACTED:password-option] https://x'],
			['$ PGPASSWORD=pgsecret psql -h db', '$ PGPASSWORD=[REDACTED:secret-assignment] psql -h db'],
			['$ MYSQL_PWD=mypw mysql', '$ MYSQL_PWD=[REDACTED:secret-assignment] mysql'],
			['$ curl -H \'Authorization: Bearer abc.def\' https://x', '$ curl -H \'Authorization: Bearer [REDACTED:authorization]\' https://x'],
			['$ curl -H "Authorization: Basic YWxpY2U6c2VjcmV0" https://x', '$ curl -H "Authorization: Basic [REDACTED:authorization]" https://x'],
			['$ curl -H \'X-Api-Key: k-123 456\' https://x', '$ curl -H \'X-Api-Key: [REDACTED:credential-header]\' https://x'],
			['$ curl --header "X-Auth-Token: tok123" https://x', '$ curl --header "X-Auth-Token: [REDACTED:credential-header]" https://x'],
			['> Cookie: session=abcdef', '> Cookie: [REDACTED:credential-header]'],
		];
		for (const [input, expected] of cases) {
			assert.equal(await redactSecrets(input), expected, input);
		}
	});

	it('leaves command lines alone whose flags only look like credentials', async () => {
		const plain = [
			'$ docker run -u 1000:1000 img', '$ sudo -u root:wheel id', '$ sort -u names.txt', '$ git push -u origin main',
			'$ mysql -u root -p shop', '$ docker login --password-stdin', '$ echo $PWD; cd $OLDPWD', 'PWD=/home/me',
			'$ curl -H \'Content-Type: application/json\' -H \'X-Author: Ann\' https://x:8080/a', '< Content-Length: 42',
			'$ curl -u alice https://x', '$ curl --user-agent "Tool: 1.0" https://x',
		].join('\n');
		assert.equal(await redactSecrets(plain), plain);
	});
});

describe('terminal output buffer', () => {
	it('keeps the head and the tail, counts what it dropped, and removes escape sequences', () => {
		const buffer = new OutputBuffer(10, 20);
		buffer.append('\u001b[31mred\u001b[0m\r\n');
		assert.deepEqual(buffer.snapshot(), { text: 'red\n' });
		buffer.append('0123456789'.repeat(5));
		const { text: output, cut } = buffer.snapshot();
		assert.equal(output.length, 30);
		assert.deepEqual(cut, { at: 10, chars: 54 - 30 });
		assert.ok(output.startsWith('red\n012345') && output.endsWith('0123456789'));
	});
});

describe('terminal provider through an MCP client', () => {
	let terminals: FakeTerminals;
	let enabled: boolean;
	let enabledChanged: Emitter<void>;
	let registry: ProviderRegistry;
	let conn: ConnectedClient;

	beforeEach(async () => {
		terminals = new FakeTerminals();
		enabled = true;
		enabledChanged = new Emitter<void>();
		registry = new ProviderRegistry([new TerminalProvider(terminals, { get: () => enabled, onDidChange: enabledChanged.event }, { throttleMs: 10 })],
			{ debounceMs: 5, maxDelayMs: 20, listChangedIntervalMs: 0 });
		conn = await connectInMemory(registry);
	});
	afterEach(async () => {
		await conn.close();
		registry.dispose();
	});

	it('lists a terminal once it ran a command and serves its last command and history, redacted', async () => {
		terminals.open(1, 'bash');
		assert.deepEqual((await conn.client.listResources()).resources, []);
		terminals.run(1, { commandLine: 'npm test', cwd: '/ws', exitCode: 1, output: 'FAIL one\n' });
		terminals.run(1, { commandLine: `gh auth login --with-token ${GITHUB_TOKEN}`, exitCode: 0, output: `Logged in with ${GITHUB_TOKEN}\n` });
		assert.deepEqual((await conn.client.listResources()).resources.map(r => r.uri), ['terminal://1/commands', 'terminal://1/last']);
		const { contents } = await conn.client.readResource({ uri: 'terminal://1/last' });
		const text = (contents[0] as { text: string }).text;
		assert.equal(text, '$ gh auth login --with-token [REDACTED:github]\n# exit code 0\nLogged in with [REDACTED:github]\n');
		const history = await readJson(conn, 'terminal://1/commands') as { commands: { commandLine: string; cwd?: string; exitCode: number; output: string }[] };
		assert.deepEqual(history.commands.map(c => [c.commandLine.slice(0, 8), c.cwd, c.exitCode]), [['npm test', '/ws', 1], ['gh auth ', undefined, 0]]);
		assert.ok(!JSON.stringify(history).includes(GITHUB_TOKEN));
	});

	it('marks cut output clearly and notifies subscribers as a command prints', async () => {
		terminals.open(2, 'zsh');
		terminals.run(2, { commandLine: 'make', running: true, output: { text: 'startend', cut: { at: 5, chars: 1234 } } });
		const text = (await conn.client.readResource({ uri: 'terminal://2/last' })).contents[0] as { text: string };
		assert.equal(text.text, '$ make\n# running\nstart\n[... 1,234 characters of output cut here ...]\nend');
		await conn.client.subscribeResource({ uri: 'terminal://2/last' });
		terminals.run(2, { commandLine: 'make again' });
		await conn.waitForUpdate('terminal://2/last');
	});

	it('hides what the output cap left of a token it cut in two, on either side of the cut', async () => {
		const fragments = (text: string) => [...Array(GITHUB_TOKEN.length - 7).keys()].map(i => GITHUB_TOKEN.slice(i, i + 8)).filter(f => text.includes(f));
		// The head ends 8 characters into the token; then the tail starts 5 characters into it.
		const endsHead = 'x'.repeat(OUTPUT_HEAD_CHARS - 9) + ' ' + GITHUB_TOKEN + ' ' + 'y\n'.repeat(OUTPUT_TAIL_CHARS);
		const startsTail = 'x'.repeat(OUTPUT_HEAD_CHARS + 5000) + ' ' + GITHUB_TOKEN + ' ' + 'y'.repeat(OUTPUT_TAIL_CHARS - GITHUB_TOKEN.length + 4);
		terminals.open(3, 'bash');
		for (const output of [endsHead, startsTail]) {
			const buffer = new OutputBuffer();
			buffer.append(output);
			assert.ok(buffer.snapshot().cut, 'the output was cut');
			terminals.run(3, { commandLine: 'env', output: buffer.snapshot() });
			const text = ((await conn.client.readResource({ uri: 'terminal://3/last' })).contents[0] as { text: string }).text;
			assert.deepEqual(fragments(text), [], text.slice(0, 200));
			assert.match(text, /\[REDACTED:github\]/);
			assert.match(text, /characters of output cut here/);
			const history = await readJson(conn, 'terminal://3/commands') as { commands: { output: string }[] };
			assert.deepEqual(fragments(history.commands.at(-1)!.output), []);
		}
	});

	it('keeps the head and the tail of a long command line, marks the cut, and hides a token it split', async () => {
		const fragments = (text: string) => [...Array(GITHUB_TOKEN.length - 7).keys()].map(i => GITHUB_TOKEN.slice(i, i + 8)).filter(f => text.includes(f));
		// A pasted script of a megabyte whose head ends 8 characters into a token.
		const line = `cat <<'EOF' > setup.sh\n${'x'.repeat(COMMAND_LINE_HEAD_CHARS - 31)} ${GITHUB_TOKEN} ${'echo step\n'.repeat(100_000)}EOF`;
		const commandLine = cappedCommandLine(line);
		assert.equal(commandLine.cut?.at, COMMAND_LINE_HEAD_CHARS);
		assert.ok(commandLine.cut.chars > 990_000);
		assert.ok(commandLine.text.length < 20_000, 'only the head and the tail are kept');
		terminals.open(4, 'bash');
		terminals.run(4, { commandLine, exitCode: 0 });
		const text = ((await conn.client.readResource({ uri: 'terminal://4/last' })).contents[0] as { text: string }).text;
		assert.ok(text.startsWith("$ cat <<'EOF' > setup.sh\nxxx"), text.slice(0, 100));
		assert.ok(text.includes(`[REDACTED:github]\n[... ${commandLine.cut.chars.toLocaleString('en-US')} characters of the command line cut here ...]\n`), text.slice(COMMAND_LINE_HEAD_CHARS - 100, COMMAND_LINE_HEAD_CHARS + 200));
		assert.ok(text.includes('echo step\nEOF\n# exit code 0\n'), text.slice(-200));
		assert.deepEqual(fragments(text), []);
		const history = await readJson(conn, 'terminal://4/commands') as { commands: { commandLine: string; commandLineCut: number }[] };
		assert.equal(history.commands[0].commandLineCut, commandLine.cut?.chars);
		assert.deepEqual(fragments(history.commands[0].commandLine), []);
	});

	it('serves nothing once the setting turns the family off', async () => {
		terminals.open(1, 'bash');
		terminals.run(1, { commandLine: 'ls' });
		enabled = false;
		enabledChanged.fire();
		await conn.waitForListChanged();
		assert.deepEqual((await conn.client.listResources()).resources, []);
		const err = await errorOf(conn.client.readResource({ uri: 'terminal://1/last' }));
		assert.ok(err.code === -32002 || err.code === -32602, JSON.stringify(err));
	});
});
