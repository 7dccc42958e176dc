/**
 * The live fan-out port: messages handed to an MQTT broker (AWS IoT Core; locally aedes), which
 * delivers each to every subscriber of its topic. At least once, QoS 1: a client drops what it has
 * (by seq). A publish may fail; nothing is lost by it, because every table event stays in the durable
 * feed and a client catches up by sequence number (GET /v1/tables/{tableId}/live?after=SEQ).
 */
export interface LiveMessage {
  topic: string;
  /** JSON text of the event. */
  payload: string;
}

export interface TablePublisher {
  /** Resolves once the broker accepted every message, in order; rejects if one was not. */
  publish(messages: readonly LiveMessage[]): Promise<void>;
}

/** For processes without a broker: publishing does nothing (clients read the feed). */
export const noPublisher: TablePublisher = { publish: () => Promise.resolve() };
