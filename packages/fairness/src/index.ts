export * from './audit';
export * from './bytes';
export * from './canonical';
export * from './shoe';
export * from './signature';
export * from './statement';
export * from './stream';
