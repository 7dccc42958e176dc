/**
 * The live fan-out on AWS IoT Core: each message one Publish of the data plane (HTTPS, QoS 1); IoT
 * Core delivers it to every subscriber of the topic over MQTT/WebSockets (docs/deploy.md, "Live
 * events"). The table's messages go one after the other, in seq order; a player's need no order
 * among themselves and go a few at a time.
 */
import { IoTDataPlaneClient, PublishCommand } from '@aws-sdk/client-iot-data-plane';
import type { LiveMessage, TablePublisher } from '@pyb/core';

export interface IotTablePublisherOptions {
  /** The account's data endpoint (`https://xxxx-ats.iot.<region>.amazonaws.com`): IOT_DATA_ENDPOINT. */
  endpoint?: string;
  client?: IoTDataPlaneClient;
}

const text = new TextEncoder();

export class IotTablePublisher implements TablePublisher {
  private client: IoTDataPlaneClient | undefined;

  constructor(private readonly options: IotTablePublisherOptions) {
    this.client = options.client;
  }

  private iot(): IoTDataPlaneClient {
    this.client ??= new IoTDataPlaneClient({
      ...(this.options.endpoint !== undefined && { endpoint: this.options.endpoint }),
    });
    return this.client;
  }

  async publish(messages: readonly LiveMessage[]): Promise<void> {
    for (const m of messages) {
      await this.iot().send(
        new PublishCommand({
          topic: m.topic,
          qos: 1,
          payload: text.encode(m.payload),
          contentType: 'application/json',
        }),
      );
    }
  }
}
