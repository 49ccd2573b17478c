// Stands in for `@modelcontextprotocol/client/_shims` in the bundles (see esbuild.mjs). The SDK's
// Node shim pulls in the large AJV as the default JSON Schema validator, used only to check tool
// output and elicitation schemas, which this extension never does; the validator the SDK ships
// for runtimes without AJV (@cfworker/json-schema) does the same job in a fraction of the size.
export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
/** Node's fetch never fails for CORS (the SDK's Node shim says the same). */
export const CORS_IS_POSSIBLE = false;
