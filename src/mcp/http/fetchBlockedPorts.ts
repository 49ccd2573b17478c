import { Logger } from '../../common/logger';

/**
 * The ports the Fetch standard blocks (https://fetch.spec.whatwg.org/#port-blocking): fetch in
 * Node (the SDK's HTTP client, so the bridge and most CLI clients), in browsers and in VS Code
 * refuses to connect to them ("fetch failed", cause "bad port"), though a server listens there
 * fine. Node does not export its list; this is the spec's, which Node 20's fetch matches exactly.
 */
const FETCH_BLOCKED_PORTS: ReadonlySet<number> = new Set([
	1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111,
	113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548,
	554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566,
	6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/**
 * The port to listen on for the `wanted` one: itself, or 0 (a free port, as when it is in use)
 * with a warning when clients that use fetch could never reach it.
 */
export function portClientsCanReach(wanted: number, log: Logger): number {
	if (!FETCH_BLOCKED_PORTS.has(wanted)) {
		return wanted;
	}
	log.warn(`port ${wanted} is one that clients using fetch (Node, browsers, VS Code) refuse to connect to; using a free port instead (change mcpResources.port or --port)`);
	return 0;
}
