import { models, Tokenizer } from 'ai-tokenizer';
import * as claude from 'ai-tokenizer/encoding/claude';

/**
 * The BPE vocabulary Anthropic published for Claude (64,995 tokens, the one
 * `@anthropic-ai/tokenizer` ships), through ai-tokenizer's pure-JS encoder. Claude 3 and later
 * tokenize differently; ai-tokenizer's model table scales the count by a multiplier it fitted
 * against the Anthropic API's token counts.
 *
 * This file is bundled on its own (dist/claudeTokenizer.js, mostly vocabulary) and
 * required only when a count is first needed, so activation never loads it.
 */
export function createClaudeTokenizer(): { count(text: string): number; readonly contentMultiplier: number } {
	const tokenizer = new Tokenizer(claude);
	return {
		count: text => tokenizer.count(text),
		contentMultiplier: models['anthropic/claude-sonnet-4.5'].tokens.contentMultiplier,
	};
}
