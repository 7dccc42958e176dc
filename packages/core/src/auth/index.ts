export * from './api-key';
export * from './authenticate';
export type * from './principal';
export * from './provision';
