export * from './message';
export * from './sqs-queue';
