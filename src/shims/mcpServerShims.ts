// Stands in for `@modelcontextprotocol/server/_shims` in the bundles (see esbuild.mjs and
// mcpClientShims.ts): the same default validator without AJV, and Node's own process for stdio.
import process from 'node:process';
export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
export { process };
