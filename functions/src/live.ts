/**
 * Publishing the table's live events after a use case committed (docs/architecture.md, "Live
 * events"), for the functions that change a table: the feed caught up from the durable logs, then
 * the new events handed to the broker. Never fails the request: a failure is logged and counted
 * (LivePublishFailed, alarmed in infra/src/live.ts), the events stay in the feed, the next call on the
 * table publishes them again, and clients catch up by seq (GET /v1/tables/{tableId}/live).
 *   LIVE_IOT_ENDPOINT                     AWS IoT Core's data endpoint: publish there (IAM iot:Publish)
 *   LIVE_MQTT_URL, LIVE_MQTT_SECRET       any MQTT broker (the dev stack's aedes), as the platform publisher
 *   neither                               nothing is published; the feed is still written
 */
import {
  betMessages,
  type LiveDeps,
  type LiveFeedStore,
  noPublisher,
  type PlaceBetResult,
  publishTable,
  type Store,
  type TablePublisher,
} from '@pyb/core';
import { IotTablePublisher, MqttTablePublisher } from '@pyb/live-mqtt';
import type { AppContext } from './context';
import { logger } from './logger';
import { coreMetrics } from './metrics';

/** The broker's username of the platform's publisher (tools/dev live-broker.ts lets it alone publish). */
export const PUBLISHER_USERNAME = 'pyb-platform';

const publishers = new WeakMap<AppContext, TablePublisher>();

/** The context's publisher, built from the environment on first use (tests and the local server may set one). */
export function publisherOf(context: AppContext): TablePublisher {
  let publisher = publishers.get(context);
  if (!publisher) {
    const { LIVE_IOT_ENDPOINT, LIVE_MQTT_URL, LIVE_MQTT_SECRET } = context.env;
    publisher = LIVE_IOT_ENDPOINT
      ? new IotTablePublisher({ endpoint: LIVE_IOT_ENDPOINT })
      : LIVE_MQTT_URL
        ? new MqttTablePublisher({
            url: LIVE_MQTT_URL,
            username: PUBLISHER_USERNAME,
            password: LIVE_MQTT_SECRET ?? '',
          })
        : noPublisher;
    publishers.set(context, publisher);
  }
  return publisher;
}

export const setPublisher = (context: AppContext, publisher: TablePublisher): void => {
  publishers.set(context, publisher);
};

const failed = (tableId: string, error: unknown) => {
  coreMetrics.count('LivePublishFailed', 1);
  logger.warn('live publish failed: the events stay in the feed, the next call publishes them', {
    tableId,
    error,
  });
};

export const liveOf = (context: AppContext): LiveDeps => ({
  store: context.store as Store & LiveFeedStore,
  publisher: publisherOf(context),
  onPublishFailure: failed,
});

/** After the use case answered: the table's feed caught up and published; the answer is returned as it was. */
export async function publishingTable<T>(
  context: AppContext,
  tableId: string | undefined,
  answer: T,
): Promise<T> {
  if (tableId === undefined) return answer;
  try {
    await publishTable(liveOf(context), tableId);
  } catch (error) {
    failed(tableId, error); // the feed itself could not be written now: the next call on the table does it
  }
  return answer;
}

/** After a bet committed: his position and balance, to him alone (a replayed key publishes nothing). */
export async function publishingBet(
  context: AppContext,
  operatorId: string,
  result: PlaceBetResult,
): Promise<PlaceBetResult> {
  if (result.replayed) return result;
  try {
    const round = await context.store.get(
      'round',
      { roundId: result.position.roundId },
      { consistent: false },
    );
    if (round)
      await publisherOf(context).publish(
        betMessages(operatorId, round.tableId, result, context.clock.now().toISOString()),
      );
  } catch (error) {
    failed(result.position.roundId, error);
  }
  return result;
}
