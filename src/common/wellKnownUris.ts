/**
 * URIs that the server serves and its own clients (the picker) ask for by name: a contract of
 * the protocol surface, so it lives below both sides instead of in either (the picker may not
 * import core/, design.md).
 */

/** The server's "what matters now" resource (this extension's own; other servers rarely have it). */
export const RELEVANT_URI = 'context://relevant';

/**
 * The server's text search template: the picker offers text matches only from servers that list
 * exactly this one, since the query parameters it sends are this template's.
 */
export const SEARCH_TEXT_TEMPLATE = 'search://text{?q,regex,case,word,glob,max}';
