export * from './api-key';
export * from './authenticate';
export type * from './principal';
export * from './principal-cache';
export * from './provision';
