export * from './factory';
export * from './local';
export * from './s3';
