/**
 * What the use cases persist (through the Store port). Field names are the stored attribute names;
 * docs/data-model.md describes the items, keys and sizes.
 */

export type * from './live';
export type * from './rounds';
export type * from './seamless';
export type * from './shoes';
export type * from './tables';
export type * from './trail';
export type * from './wallet';
