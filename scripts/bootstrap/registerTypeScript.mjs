// @ts-check
// JavaScript, not TypeScript like the rest of scripts/: it is what lets Node load TypeScript.
// `node --import ./scripts/bootstrap/registerTypeScript.mjs scripts/<job>/<script>.ts`: how every
// tooling script runs, and every worker thread or child process one starts (the same --import;
// see ./typescriptHooks.mjs for why a loader). Source maps make stack traces name the .ts lines.
import { register } from 'node:module';

process.setSourceMapsEnabled(true);
register('./typescriptHooks.mjs', import.meta.url);
