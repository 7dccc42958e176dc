export type * from './record';
export * from './run';
