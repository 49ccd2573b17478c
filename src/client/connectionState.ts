/** Where a reconnecting client's connection stands, as the picker's rows and status show it. */
export type ConnectionState =
	| { readonly kind: 'idle' }
	| { readonly kind: 'connecting' }
	| { readonly kind: 'connected' }
	/** No server to reach (e.g. this window's server is stopped); waits for the source to change. */
	| { readonly kind: 'unavailable'; readonly message: string }
	| { readonly kind: 'error'; readonly message: string; readonly retryAt?: number };

/** The protocol era a connection landed on: 2026-07-28 (`modern`) or 2025 (`legacy`). */
export type ProtocolEra = 'modern' | 'legacy';
