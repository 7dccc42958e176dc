/**
 * The archiver's Lambda: DynamoDB stream records of the game table, already filtered by the event
 * source mapping to shoe items whose new image is CLOSED (infra/src/retention.ts), each archived by
 * `archiveClosedShoe`. Records are handled in stream order; the first failure is reported as the batch
 * item failure, so Lambda retries from that record (and, past its retries, sends it to the DLQ).
 */
import { type ArchiveShoeDeps, archiveClosedShoe } from '@pyb/core';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { z } from 'zod';
import { logger } from './logger';

/** The fields of a shoe item's new image the archiver reads (DynamoDB's typed JSON). */
const ClosedShoeImage = z.object({
  sk: z.object({ S: z.literal('SHOE') }),
  status: z.object({ S: z.literal('CLOSED') }),
  shoeId: z.object({ S: z.string().min(1) }),
  operatorId: z.object({ S: z.string().min(1) }),
});

export function archiveStreamHandler(deps: () => ArchiveShoeDeps) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    for (const record of event.Records) {
      const sequence = record.dynamodb?.SequenceNumber ?? record.eventID ?? '';
      const image = ClosedShoeImage.safeParse(record.dynamodb?.NewImage);
      if (!image.success) {
        // The mapping's filter lets only closed shoes through; anything else is not ours to archive.
        logger.warn('stream record is not a closed shoe: skipped', { sequence, eventName: record.eventName });
        continue;
      }
      const shoe = { shoeId: image.data.shoeId.S, operatorId: image.data.operatorId.S };
      try {
        const outcome = await archiveClosedShoe(deps(), shoe);
        logger.info('shoe archive', { ...outcome });
      } catch (error) {
        logger.error('shoe archive failed: retried from this record', { ...shoe, sequence, error });
        return { batchItemFailures: [{ itemIdentifier: sequence }] };
      }
    }
    return { batchItemFailures: [] };
  };
}
