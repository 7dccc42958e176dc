/**
 * The live fan-out on any MQTT broker (the dev stack's and the tests' aedes): one connection of the
 * platform, opened on first use, publishing QoS 1 in order. The broker lets this connection alone
 * publish (its username and secret), as IAM lets only the platform's functions publish to IoT Core.
 */
import type { LiveMessage, TablePublisher } from '@pyb/core';
import { connectAsync, type MqttClient } from 'mqtt';

export interface MqttTablePublisherOptions {
  /** ws://host:port (LIVE_MQTT_URL). */
  url: string;
  username: string;
  password: string;
}

export class MqttTablePublisher implements TablePublisher {
  private client: Promise<MqttClient> | undefined;

  constructor(private readonly options: MqttTablePublisherOptions) {}

  private connection(): Promise<MqttClient> {
    this.client ??= connectAsync(this.options.url, {
      username: this.options.username,
      password: this.options.password,
      clientId: `pyb-publisher-${process.pid}-${Math.random().toString(36).slice(2, 10)}`,
      reconnectPeriod: 1000,
    }).catch((error: unknown) => {
      this.client = undefined; // the next publish tries again
      throw error;
    });
    return this.client;
  }

  async publish(messages: readonly LiveMessage[]): Promise<void> {
    const client = await this.connection();
    for (const m of messages) await client.publishAsync(m.topic, m.payload, { qos: 1 });
  }

  async close(): Promise<void> {
    const client = await this.client?.catch(() => undefined);
    this.client = undefined;
    await client?.endAsync();
  }
}
