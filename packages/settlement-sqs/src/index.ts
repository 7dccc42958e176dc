export * from './message';
export * from './send-batches';
export * from './sqs-client';
export * from './sqs-queue';
