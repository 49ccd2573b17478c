import { lintSource } from '@secretlint/core';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import { CUT_SEAM_CHARS } from './outputBuffer';
import { CutEdges } from './ports';

/**
 * Credentials terminals print. Token formats come from secretlint's recommended preset (AWS,
 * GCP, GitHub, npm, Slack, SendGrid, OpenAI, Anthropic, basic-auth URLs, ...); the rules below
 * add what a terminal shows and the preset does not look for: whole private key blocks (the
 * preset needs a complete, valid-looking key), `Authorization:` header values, AWS access key
 * ids on their own, Google API keys, `NAME_TOKEN=value` style assignments, the password of
 * any URL (the preset's basic-auth rule knows only http and ftp, passwords of letters and
 * digits, hosts with a dot), and the Stripe, Cloudflare and Tailscale key formats, which the
 * preset gained only in versions that need Node 22 while this project runs on Node 20.
 */
/**
 * `curl ... -u user:` kept, then the password: to the closing quote when the pair was quoted
 * (`-u 'bob:two words'`), else to the next blank or quote. A glued `-uuser:` is written as a
 * lookahead (the letters before the user hold a `u`) rather than as letters, a `u`, then the
 * user: read that way, every `u` of a long run of letters rescans the rest of the run.
 */
function curlUserPattern(): RegExp {
	const quotedUser = String.raw`(?:"[^"\n:]*:|'[^'\n:]*:)`;
	const flagAndUser = String.raw`\s(?:-[A-Za-z]*[uU]\s*${quotedUser}|-[A-Za-z]*[uU]\s+[^\s:"']*:|-(?=[A-Za-z]*[uU])[^\s:"']*:`
		+ String.raw`|--(?:proxy-)?user(?:\s+|=)(?:${quotedUser}|[^\s:"']*:))`;
	// Looked at behind a match only, once it is found: read backwards, this one is linear.
	const flag = String.raw`\s(?:-[A-Za-z]*[uU]\s*|--(?:proxy-)?user(?:\s+|=))`;
	// The window after `curl` ends at the next `curl`: a line of `curl curl curl ...` is not read
	// 2,000 characters from each of them. What a later `curl` is followed by, its own window finds.
	return new RegExp(String.raw`(\bcurl\b(?:(?!\bcurl\b)[^\n]){0,2000}?${flagAndUser})`
		+ String.raw`(?:(?<=${flag}"[^"\n:]*:)[^"\n]+|(?<=${flag}'[^'\n:]*:)[^'\n]+|[^\s"']+)`, 'g');
}

const OWN_RULES: readonly { id: string; pattern: RegExp; keep?: number }[] = [
	{ id: 'private-key', pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g },
	// Keeps "Authorization: Bearer " and hides the credential after it.
	{ id: 'authorization', pattern: /(\b(?:proxy-)?authorization\b["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|digest|negotiate)\s+)?)[^\s"',;]+/gi, keep: 1 },
	{ id: 'aws-access-key-id', pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA)[A-Z0-9]{16}\b/g },
	// The preset's GCP rule finds service account keys only; Google's API keys have a fixed shape.
	{ id: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
	// Stripe's secret and restricted keys, live and test: the prefix says what they are.
	{ id: 'stripe', pattern: /(?<![A-Za-z0-9])[rs]k_(?:live|test)_[A-Za-z0-9]{24,}/g },
	// Cloudflare's prefixed API tokens: `cfk_`, `cfut_` or `cfat_`, then 40 characters and an 8-digit checksum.
	{ id: 'cloudflare', pattern: /(?<![A-Za-z0-9])cf(?:k|ut|at)_[A-Za-z0-9]{48}(?![A-Za-z0-9])/g },
	// Tailscale's keys, `tskey-<kind>-<id>-<secret>`: the whole key goes, its id is half of it.
	{ id: 'tailscale', pattern: /(?<![A-Za-z0-9])tskey-[a-z]+-[A-Za-z0-9_]+-[A-Za-z0-9_]{16,}/g },
	// Environment-variable style names only (upper case), so prose like "tokens: 12" stays.
	// `_PWD` (MYSQL_PWD) needs the underscore: PWD and OLDPWD are the shell's working directories.
	// The name's word is looked at once (a lookahead) for the word it must hold: name, word, name
	// rescans the rest of a long name for every place the word appears in it.
	{ id: 'secret-assignment', pattern: /(\b(?=[A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|_PWD\b|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY))[A-Z0-9_]+\s*[=:]\s*)("[^"\n]*"|'[^'\n]*'|[^\s"']+)/g, keep: 1 },
	// Keeps `scheme://user:` and `@host`; the password runs to the authority's last `@`. The scheme
	// is looked for behind each `://`: tried from every letter of a long `a.b-c...` run, it would
	// scan the rest of the run from each.
	{ id: 'url-password', pattern: /(:\/\/(?<=\b[a-z][a-z0-9+.-]*:\/\/)[^\s:/?#@]*:)[^\s/?#]+(?=@[^\s@/?#]*(?:[\s/?#]|$))/gi, keep: 1 },
	// curl's `-u user:pass`, `-uuser:pass`, `--user user:pass`, `--proxy-user`, `-U`, in flags
	// grouped as `-su`, quoted or not: the password after the first colon. Only on a curl command
	// line: `-u` and `--user` take `uid:gid` in docker, sudo and ps.
	{ id: 'curl-user', pattern: curlUserPattern(), keep: 1 },
	// mysql, mysqldump and mysqladmin take the password glued to `-p` (`-p SECRET` would name a database).
	// As with curl, the window after `mysql` ends at the next `mysql`.
	{ id: 'mysql-password', pattern: /(\bmysql(?:dump|admin|import|show|check)?\b(?:(?!\bmysql(?:dump|admin|import|show|check)?\b)[^\n]){0,2000}?\s-p)[^\s-][^\s]*/g, keep: 1 },
	// `--password=...` and `--password ...` of any command (`--db-password`, `--http-password`);
	// `--password-stdin` and other names that go on are left alone.
	{ id: 'password-option', pattern: /(\s--(?:[a-z0-9]+-)*pass(?:word|wd)(?:=|\s+)["']?)[^\s"']+/gi, keep: 1 },
	// A header a command line sends (`-H 'X-Api-Key: ...'`) or curl -v prints (`> Cookie: ...`)
	// whose name says it carries a credential; `Authorization` has its own rule above. As in
	// secret-assignment, the name is looked at once for its word; and a flag starts a word
	// (`-H-H-H...` is one word, not thousands of flags each reading the rest of it).
	{ id: 'credential-header', pattern: /((?:(?<![A-Za-z0-9-])(?:-H|--header)(?:\s+|=)?["']?|^[<>] )(?!(?:proxy-)?authorization\b)(?:(?=[A-Za-z0-9-]*(?:api-?key|token|secret|password|session|auth)(?![a-z]))[A-Za-z0-9-]+|cookie|set-cookie)\s*:\s*)[^"'\r\n]+/gim, keep: 1 },
];

/** The rules' patterns, for `npm run check:redos` (scripts/check/redos.ts): built at run time, no literal to find. */
export const REDACTION_PATTERNS: readonly { readonly id: string; readonly pattern: RegExp }[] = OWN_RULES;

/**
 * Where secretlint's findings keep the secret itself (some rules report a range that starts at a
 * label, `aws_secret_access_key = `, but is as long as the key, so it misses the key's end):
 * every place the secret appears is hidden too.
 */
const FOUND_SECRET_KEYS = ['KEY', 'TOKEN', 'ID', 'URI', 'URL', 'CREDENTIAL'];

export const REDACTED = '[REDACTED]';

/** A key block's last line; with its BEGIN line cut away, `OWN_RULES`' private-key rule finds nothing. */
const PRIVATE_KEY_END = /-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g;
/** What the lines of a key block are made of: base64, line ends, and the `\n` escapes of a key inside JSON. */
const KEY_TEXT = /[A-Za-z0-9+/=\\\n]/;

/**
 * Key blocks whose start the output cap dropped (`OutputBuffer` keeps the head and the tail):
 * each END line with the key text just before it. The tail of an RSA key alone holds its CRT
 * parameters, enough to factor the modulus. Walked back by hand: a regular expression with a
 * repeated group of lines before the END backtracks quadratically over long base64 output.
 */
function keyTails(text: string): [number, number][] {
	const found: [number, number][] = [];
	for (const match of text.matchAll(PRIVATE_KEY_END)) {
		let start = match.index;
		while (start > 0 && KEY_TEXT.test(text[start - 1])) {
			start--;
		}
		while (text[start] === '\n') {
			start++; // the line break before the key stays
		}
		found.push([start, match.index + match[0].length]);
	}
	return found;
}

/** Where a rule found a credential: start, end (exclusive), and the rule's id. */
type Found = [number, number, string];

/** `text` with every credential the rules find replaced by `[REDACTED:<rule>]`. */
export async function redactSecrets(text: string): Promise<string> {
	return applyRedactions(text, await findSecrets(text));
}

/**
 * `head + marker + tail` redacted, where the text between `head` and `tail` was cut away. Each side
 * of the cut is also read together with what was cut next to it (`edges`), so a credential the
 * cut split in two is still recognised and the part that was kept is hidden: most of a token is
 * as good as the token.
 */
export async function redactAcrossCut(head: string, marker: string, tail: string, edges: CutEdges | undefined): Promise<string> {
	const text = head + marker + tail;
	const found = await findSecrets(text);
	if (edges) {
		const seamStart = Math.max(0, head.length - CUT_SEAM_CHARS);
		for (const [start, end, id] of await findSecrets(head.slice(seamStart) + edges.afterHead)) {
			if (seamStart + start < head.length) {
				found.push([seamStart + start, Math.min(seamStart + end, head.length), id]);
			}
		}
		const tailAt = head.length + marker.length;
		const cutChars = edges.beforeTail.length;
		for (const [start, end, id] of await findSecrets(edges.beforeTail + tail.slice(0, CUT_SEAM_CHARS))) {
			if (end > cutChars) {
				found.push([tailAt + Math.max(0, start - cutChars), tailAt + end - cutChars, id]);
			}
		}
	}
	return applyRedactions(text, found);
}

async function findSecrets(text: string): Promise<Found[]> {
	const ranges: Found[] = [];
	for (const rule of OWN_RULES) {
		for (const match of text.matchAll(rule.pattern)) {
			const start = match.index + (rule.keep ? match[rule.keep].length : 0);
			ranges.push([start, match.index + match[0].length, rule.id]);
		}
	}
	for (const [start, end] of keyTails(text)) {
		ranges.push([start, end, 'private-key']);
	}
	const result = await lintSource({
		source: { content: text, filePath: 'terminal-output.txt', contentType: 'text' },
		options: { config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] }, maskSecrets: false },
	});
	for (const message of result.messages) {
		const [start, end] = message.range;
		const id = message.ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
		ranges.push([start, end, id]);
		const data = message.data as Readonly<Record<string, unknown>> | undefined;
		for (const secret of FOUND_SECRET_KEYS.map(key => data?.[key])) {
			if (typeof secret !== 'string' || secret === '') {
				continue;
			}
			for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) {
				ranges.push([at, at + secret.length, id]);
			}
		}
	}
	return ranges;
}

function applyRedactions(text: string, ranges: Found[]): string {
	if (ranges.length === 0) {
		return text;
	}
	// Overlapping finds merge into one redaction, named after the first.
	ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
	let out = '';
	let at = 0;
	for (const [start, end, id] of ranges) {
		if (end <= at) {
			continue;
		}
		out += text.slice(at, Math.max(at, start));
		if (start >= at) {
			out += `[REDACTED:${id}]`;
		}
		at = end;
	}
	return out + text.slice(at);
}
