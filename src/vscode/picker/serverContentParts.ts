// TreeItem parts made from what a server sent (its strings, its icons), built so none of it runs or fetches.
import * as vscode from 'vscode';
import { SafeIcon } from '../../client/foreignIcons';

/** A Markdown string for text that includes a server's strings: no command links, no HTML, no theme icons. */
export function untrustedMarkdown(): vscode.MarkdownString {
	const md = new vscode.MarkdownString('', false);
	md.isTrusted = false;
	md.supportHtml = false;
	return md;
}

/**
 * A validated icon (only `data:` URIs of checked PNG, JPEG, WebP or GIF bytes reach here, see
 * client/foreignIcons.ts), so showing it fetches nothing.
 */
export function iconUris(icon: SafeIcon): vscode.Uri | { light: vscode.Uri; dark: vscode.Uri } {
	return icon.light === icon.dark ? vscode.Uri.parse(icon.light) : { light: vscode.Uri.parse(icon.light), dark: vscode.Uri.parse(icon.dark) };
}
