// @ts-check
// `node --import ./scripts/bootstrap/registerTypeScript.mjs scripts/<job>/<script>.ts`: how every
// tooling script runs (see ./typescriptHooks.mjs for why a loader). Source maps make stack
// traces name the .ts lines.
import { register } from 'node:module';

process.setSourceMapsEnabled(true);
register('./typescriptHooks.mjs', import.meta.url);
