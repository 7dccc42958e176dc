export * from './message';
export * from './send-batches';
export * from './sqs-queue';
