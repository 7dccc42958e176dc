export * from './eventbridge';
export * from './factory';
export * from './recording';
