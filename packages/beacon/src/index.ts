export * from './factory';
export * from './http';
export * from './local';
