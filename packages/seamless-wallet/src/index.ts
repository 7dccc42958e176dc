export * from './client';
export * from './signature';
