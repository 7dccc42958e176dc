export * from './actor';
export * from './errors';
export type * from './ports/key-service';
