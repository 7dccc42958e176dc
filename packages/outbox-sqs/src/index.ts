export * from './message';
export * from './port';
export * from './sqs-outbox';
