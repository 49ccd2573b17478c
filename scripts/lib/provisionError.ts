/**
 * A provisioning failure a person can act on: its message says what went wrong and what to do,
 * in a line or two, and the runners print it as it is, without a stack trace.
 */
export class ProvisionError extends Error {}
