import { ConnectedClient } from './harness';

/** Reads a resource through the client and parses its first (JSON) content. */
export async function readJson(conn: ConnectedClient, uri: string): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
	const { contents } = await conn.client.readResource({ uri });
	const first = contents[0];
	if (!first || !('text' in first)) {
		throw new Error(`${uri} has no text content`);
	}
	return JSON.parse(first.text);
}
