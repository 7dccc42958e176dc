export * from '../tables';
export * from './create-tables';
export * from './launcher';
