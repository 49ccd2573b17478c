// The builds each bench section measures this one against by default, in the same run (a git
// ref, built once into .cache/bench/previous/<sha>; see resolvePreviousCli in eras.ts).

/**
 * The last build on the SDK v1 packages: the reference of the protocol eras' aims ("nothing
 * slower than the v1 build"), the default `--previous` of `npm run bench`.
 */
export const SDK_V1_BUILD = '2af01d505d3e';

/**
 * The build the previous round shipped: the default previous build of `npm run bench -- --scale`.
 * Moved to the newest landed commit when a round lands.
 */
export const LAST_LANDED_BUILD = 'c0ce932e9bdb';

/** `--previous none` measures no previous build. */
export const NO_PREVIOUS = 'none';
