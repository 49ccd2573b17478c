/**
 * URIs that the server serves and its own clients (the picker) ask for by name: a contract of
 * the protocol surface, so it lives below both sides instead of in either (the picker may not
 * import core/, design.md).
 */

/** The server's "what matters now" resource (this extension's own; other servers rarely have it). */
export const RELEVANT_URI = 'context://relevant';
