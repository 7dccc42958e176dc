export * from './create-once';
export * from './errors';
export * from './factory';
export * from './kms';
export * from './local';
export * from './player-tokens';
export * from './seed';
