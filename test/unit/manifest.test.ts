import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { BLOCKED_WORKSPACE_STATES } from '../../src/picker/workspaceNotice';

const root = path.join(__dirname, '../../..');

interface Step { id: string; description: string; media: { markdown?: string; image?: string }; completionEvents?: string[] }
interface Manifest {
	contributes: {
		commands: { command: string }[];
		views: Record<string, { id: string }[]>;
		viewsWelcome: { view: string; contents: string; when?: string }[];
		walkthroughs: { id: string; steps: Step[] }[];
	};
}
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;

/** VS Code's own commands the welcome views and the walkthrough link to on purpose. */
const VSCODE_COMMANDS = new Set(['workbench.trust.manage', 'workbench.action.openSettings', 'workbench.action.files.openFolder', 'workbench.action.openWalkthrough']);

/** What the package ships: the `!` lines of .vscodeignore (an allowlist), `*` matching within one folder. */
function shipped(file: string): boolean {
	return readFileSync(path.join(root, '.vscodeignore'), 'utf8').split('\n')
		.filter(line => line.startsWith('!'))
		.some(line => new RegExp(`^${line.slice(1).split('*').map(part => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`).test(file));
}

/** The `command:` links of a welcome view's contents or a walkthrough step's description: id and arguments. */
function commandLinks(text: string): { id: string; args: unknown }[] {
	return [...text.matchAll(/\]\(command:([\w.-]+)(?:\?([^)]*))?\)/g)].map(m => ({ id: m[1], args: m[2] === undefined ? undefined : JSON.parse(decodeURIComponent(m[2])) }));
}

function isKnownCommand(id: string): boolean {
	const views = Object.values(manifest.contributes.views).flat().map(view => `${view.id}.focus`);
	return manifest.contributes.commands.some(c => c.command === id) || views.includes(id) || VSCODE_COMMANDS.has(id);
}

// What VS Code reads from package.json for a first run: a button that names a command nobody
// registered, or a page the package leaves out, fails silently in front of a new user.
describe('package.json: the walkthrough and the picker\'s welcome views', () => {
	const steps = manifest.contributes.walkthroughs.flatMap(w => w.steps);

	it('has one walkthrough whose steps are connect, browse, what matters now and search, each with a button', () => {
		assert.deepEqual(manifest.contributes.walkthroughs.map(w => w.id), ['gettingStarted']);
		assert.deepEqual(steps.map(s => s.id), ['connect', 'browse', 'relevant', 'search']);
		assert.deepEqual(steps.map(s => commandLinks(s.description).map(l => l.id)), [
			['mcpResources.connectClient'], ['mcpResources.picker.focus'], ['mcpResources.attachSuggested'], ['mcpResources.pickResources'],
		]);
	});

	it('ships each step\'s page and the pictures it shows', () => {
		for (const step of steps) {
			const page = step.media.markdown;
			assert.ok(page, `${step.id} has a Markdown page`);
			assert.ok(existsSync(path.join(root, page)), `${page} exists`);
			assert.ok(shipped(page), `${page} is in .vscodeignore's allowlist`);
			const pictures = [...readFileSync(path.join(root, page), 'utf8').matchAll(/!\[([^\]]*)\]\(([^)]+)\)/g)];
			assert.ok(pictures.length > 0, `${page} shows a picture`);
			for (const [, alt, target] of pictures) {
				const picture = path.posix.join(path.posix.dirname(page), target);
				assert.ok(alt.length > 0, `${page}: ${target} has alt text`);
				assert.ok(existsSync(path.join(root, picture)), `${picture} exists`);
				assert.ok(shipped(picture), `${picture} is in .vscodeignore's allowlist`);
			}
		}
	});

	it('completes steps on events that name the extension\'s own commands and views', () => {
		for (const event of steps.flatMap(s => s.completionEvents ?? [])) {
			const [kind, id] = event.split(':');
			assert.ok(kind === 'onCommand' ? isKnownCommand(id) : kind === 'onView' && isKnownCommand(`${id}.focus`), event);
		}
	});

	it('welcomes each state that leaves the picker empty with a way out, and another server to browse', () => {
		const welcomes = manifest.contributes.viewsWelcome.filter(w => w.view === 'mcpResources.picker');
		assert.deepEqual(welcomes.map(w => w.when), BLOCKED_WORKSPACE_STATES.map(state => `mcpResources.picker.workspaceState == ${state}`));
		for (const welcome of welcomes) {
			const buttons = welcome.contents.split('\n').filter(line => /^\[[^\]]+\]\(command:/.test(line)).map(line => commandLinks(line)[0].id);
			assert.ok(buttons.length >= 2, `${welcome.when}: ${buttons.join(', ')}`);
			// Nothing else configured is why the view is empty: adding a server is always a way out.
			assert.equal(buttons.at(-1), 'mcpResources.addServer', welcome.when);
		}
	});

	it('links only to commands that exist, with arguments that parse', () => {
		const texts = [...steps.map(s => s.description), ...manifest.contributes.viewsWelcome.map(w => w.contents)];
		const links = texts.flatMap(commandLinks);
		assert.ok(links.length > 0);
		for (const link of links) {
			assert.ok(isKnownCommand(link.id), `command:${link.id} is contributed (or one of VS Code's listed here)`);
		}
	});
});
