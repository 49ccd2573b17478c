// @ts-check
// The repository's root folder: the one definition every script and library module uses.
// JavaScript, not TypeScript: the bootstrap's own scripts need it before the TypeScript loader
// (and node_modules) exist.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
