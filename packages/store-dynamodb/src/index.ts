export * from './idempotency';
export * from './principals';
export * from './store';
export * from './tables';
