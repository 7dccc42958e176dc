export * from './idempotency';
export * from './principals';
export * from './sessions';
export * from './store';
export * from './tables';
