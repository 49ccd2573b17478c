/** The variables of an RFC 6570 URI template, in order (`file:///{+path}` -> ['path']). */
export function templateVariables(template: string): string[] {
	const names: string[] = [];
	for (const match of template.matchAll(/\{([+#./;?&]?)([^}]+)\}/g)) {
		for (const raw of match[2].split(',')) {
			const name = raw.replace(/[*]$/, '').replace(/:\d+$/, '').trim();
			if (name && !names.includes(name)) {
				names.push(name);
			}
		}
	}
	return names;
}

/**
 * Expands the simple and reserved (`+`) forms of RFC 6570, the ones MCP servers use for
 * resource templates. Simple values are percent-encoded entirely; reserved values keep `/`,
 * `:` and the other reserved characters.
 */
export function expandTemplate(template: string, values: Readonly<Record<string, string>>): string {
	return template.replace(/\{([+#./;?&]?)([^}]+)\}/g, (_all, op: string, vars: string) => {
		const parts = vars.split(',').map(v => v.replace(/[*]$/, '').replace(/:\d+$/, '').trim());
		const encode = op === '+' || op === '#' ? (s: string) => encodeURI(s).replace(/%25([0-9A-Fa-f]{2})/g, '%$1') : encodeURIComponent;
		const expanded = parts.filter(p => values[p] !== undefined).map(p => encode(values[p]));
		if (expanded.length === 0) {
			return '';
		}
		switch (op) {
			case '#': return `#${expanded.join(',')}`;
			case '.': return `.${expanded.join('.')}`;
			case '/': return `/${expanded.join('/')}`;
			case '?': return `?${parts.filter(p => values[p] !== undefined).map(p => `${p}=${encodeURIComponent(values[p])}`).join('&')}`;
			case '&': return `&${parts.filter(p => values[p] !== undefined).map(p => `${p}=${encodeURIComponent(values[p])}`).join('&')}`;
			case ';': return parts.filter(p => values[p] !== undefined).map(p => `;${p}=${encodeURIComponent(values[p])}`).join('');
			default: return expanded.join(',');
		}
	});
}
