export * from './api-key';
export * from './authenticate';
export * from './player-tokens';
export type * from './principal';
export * from './principal-cache';
export * from './provision';
export type * from './session-store';
export * from './sessions';
export * from './whoami';
