export * from './key';
export type * from './record';
