// Bundles the extension (vscode external) and the headless CLI into dist/.
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');
const production = !process.argv.includes('--dev');

/** @type {import('esbuild').BuildOptions} */
const common = {
	bundle: true,
	platform: 'node',
	target: 'node20',
	format: 'cjs',
	minify: production,
	sourcemap: production ? false : 'inline',
	logLevel: 'info',
	legalComments: 'none',
	metafile: true,
};

const builds = [
	{ ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
	{ ...common, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
];

if (watch) {
	for (const options of builds) {
		const ctx = await esbuild.context(options);
		await ctx.watch();
	}
} else {
	await Promise.all(builds.map(options => esbuild.build(options)));
}
