export * from './idempotency';
export * from './principals';
export * from './tables';
