import { literal, looseObject, optional, record, string, union } from 'zod';

/*
 * The params each request this server answers must have, given to the SDK with each handler: it
 * answers a mismatch with -32602 and a short reason, where its own spec-schema check would answer
 * -32603 with the validator's dump. Shared by the server's handlers and the bridge's relay, so a
 * client gets the same answer through either. Unknown fields pass (loose objects).
 * Named imports (not the `z` namespace) let the bundler drop zod's unused locales.
 */
export const LIST_PARAMS = looseObject({ cursor: optional(string()) });
export const URI_PARAMS = looseObject({ uri: string() });
export const NAME_PARAMS = looseObject({ name: string() });
export const COMPLETE_PARAMS = looseObject({
	ref: union([looseObject({ type: literal('ref/resource'), uri: string() }), looseObject({ type: literal('ref/prompt'), name: string() })]),
	argument: looseObject({ name: string(), value: string() }),
	context: optional(looseObject({ arguments: optional(record(string(), string())) })),
});
