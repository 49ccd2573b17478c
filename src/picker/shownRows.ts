/** What a user sees of one row of a QuickPick: its key when it checks, its kind, its text and its icon. */
export interface RowLook {
	readonly key?: string;
	readonly kind?: number;
	readonly label: string;
	readonly description?: string;
	readonly detail?: string;
	readonly icon?: string;
}

/**
 * The rows a QuickPick shows last, to tell whether new ones differ. Sending the same rows again
 * also sends the selection as the extension last heard it, and VS Code then drops a tick the user
 * made a moment before whose event is still on its way: rows that look the same are not sent.
 */
export class ShownRows {
	private last: string | undefined;

	/** Whether `rows` differ from those last shown; they are the ones shown from now on. */
	changed(rows: readonly RowLook[]): boolean {
		const look = JSON.stringify(rows.map(r => [r.key ?? null, r.kind ?? null, r.label, r.description ?? null, r.detail ?? null, r.icon ?? null]));
		if (look === this.last) {
			return false;
		}
		this.last = look;
		return true;
	}
}
