import * as assert from 'node:assert/strict';
import { countTokens as anthropicCount } from '@anthropic-ai/tokenizer';
import { Tokenizer } from 'ai-tokenizer';
import * as o200k from 'ai-tokenizer/encoding/o200k_base';
import { countTokens } from '../../../src/picker/tokenCount';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { startToolWorkspace, ToolWorkspace } from '../../helpers/toolWorkspace';

/** What the whole tools/list answer may cost a model, on every request it makes. */
const BUDGET = 1_500;
/**
 * The answer's size now, in Claude tokens as the picker counts them: a change of a name, a
 * description or a schema shows here, to be weighed against the budget (and noted in the
 * CHANGELOG) rather than noticed in someone's context window.
 */
const PINNED_CLAUDE_TOKENS = 1_472;

describe('the size of tools/list', function () {
	this.timeout(30_000);
	let fx: Fixture;
	let ws: ToolWorkspace;

	before(async () => {
		fx = createFixture();
		ws = await startToolWorkspace(fx.root); // every tool offered, search included
	});
	after(async () => {
		await ws?.dispose();
		fx?.dispose();
	});

	it(`is at most ${BUDGET} tokens with every tool, by each tokenizer we ship, in both eras`, async () => {
		for (const c of ws.clients) {
			const { tools } = await c.client.listTools();
			assert.equal(tools.length, 7);
			const answer = JSON.stringify({ tools });
			const counts = {
				claude: countTokens(answer),
				anthropicTokenizer: anthropicCount(answer),
				o200k: new Tokenizer(o200k).count(answer),
			};
			for (const [tokenizer, count] of Object.entries(counts)) {
				assert.ok(count <= BUDGET, `${c.label}: ${count} ${tokenizer} tokens, over the budget of ${BUDGET}`);
			}
			assert.equal(counts.claude, PINNED_CLAUDE_TOKENS, `${c.label}: tools/list is ${counts.claude} Claude tokens (all: ${JSON.stringify(counts)}); update the pin if that is meant`);
		}
	});
});
