export * from './audit';
export * from './bytes';
export * from './canonical';
