export * from './message';
export * from './sqs-outbox';
