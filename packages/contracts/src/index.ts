export * from './common';
export * from './endpoints';
export * from './replay';
export * from './rounds';
export * from './shoes';
export * from './tables';
export * from './wallets';
