export * from './actor';
export * from './errors';
export type * from './ports/key-service';
export * from './auth';
export * from './idempotency';
