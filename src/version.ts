/** The product version; a unit test keeps it equal to package.json's. */
export const VERSION = '0.1.0';
export const SERVER_NAME = 'mcp-workspace-resources';
