export * from './definition';
export * from './sfn';
