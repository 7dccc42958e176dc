/** The SQS adapter of the seamless outbox: the exact requests it sends, the backoff, the messages. */
import { ChangeMessageVisibilityBatchCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import {
  decodeOutboxMessage,
  encodeOutboxMessage,
  REDELIVERY_MAX_SECONDS,
  redeliveryDelaySeconds,
  SqsOutboxQueue,
} from '../src/index';

const URL = 'https://sqs.eu-west-1.amazonaws.com/111122223333/pyb-dev-outbox';

function queue() {
  const client = new SQSClient({ region: 'eu-west-1' });
  const mock = mockClient(client);
  return { sqs: new SqsOutboxQueue({ queueUrl: URL, client }), mock };
}

const credits = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => `${i % 2 ? 'rbk' : 'crd'}_${String(i).padStart(16, '0')}`);

describe('SqsOutboxQueue.send', () => {
  it('sends one message per transaction, ten per SendMessageBatch, to the queue URL', async () => {
    const { sqs, mock } = queue();
    mock.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const messages = credits(12);
    await sqs.send(messages);
    const inputs = mock.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input);
    expect(inputs.map((i) => i.Entries!.length)).toEqual([10, 2]);
    expect(inputs[1]).toEqual({
      QueueUrl: URL,
      Entries: [
        { Id: '10', MessageBody: '{"v":1,"txId":"crd_0000000000000010"}' },
        { Id: '11', MessageBody: '{"v":1,"txId":"rbk_0000000000000011"}' },
      ],
    });
    const bodies = inputs.flatMap((i) => i.Entries!.map((e) => decodeOutboxMessage(e.MessageBody!)));
    expect(bodies).toEqual(messages);
  });

  it('sends again only the entries SQS failed; gives up after three attempts; a sender fault throws at once', async () => {
    const { sqs, mock } = queue();
    mock
      .on(SendMessageBatchCommand)
      .resolvesOnce({ Successful: [], Failed: [{ Id: '2', Code: 'InternalError', SenderFault: false }] })
      .resolves({});
    await sqs.send(credits(3));
    expect(
      mock.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input.Entries!.map((e) => e.Id)),
    ).toEqual([['0', '1', '2'], ['2']]);

    const failing = queue();
    failing.mock
      .on(SendMessageBatchCommand)
      .resolves({ Failed: [{ Id: '0', Code: 'InternalError', SenderFault: false }] });
    await expect(failing.sqs.send(credits(1))).rejects.toThrow(/1 outbox message\(s\) after 3 attempts/);
    expect(failing.mock.commandCalls(SendMessageBatchCommand)).toHaveLength(3);

    const refused = queue();
    refused.mock
      .on(SendMessageBatchCommand)
      .resolves({ Failed: [{ Id: '0', Code: 'InvalidMessageContents', SenderFault: true }] });
    await expect(refused.sqs.send(credits(1))).rejects.toThrow(
      /refused outbox message 0: InvalidMessageContents/,
    );
    expect(refused.mock.commandCalls(SendMessageBatchCommand)).toHaveLength(1);
  });

  it('needs the queue URL only to send', async () => {
    const unnamed = new SqsOutboxQueue({ queueUrl: '', client: new SQSClient({ region: 'eu-west-1' }) });
    await expect(unnamed.send(credits(1))).rejects.toThrow(/OUTBOX_QUEUE_URL/);
  });
});

describe('backoff', () => {
  it('30 s after the first delivery, doubling, at most an hour', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 100].map(redeliveryDelaySeconds)).toEqual([
      30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600, 3600,
    ]);
    // A missing or odd count is treated as the first delivery, never as no wait.
    expect([0, Number.NaN, -3].map(redeliveryDelaySeconds)).toEqual([30, 30, 30]);
    expect(REDELIVERY_MAX_SECONDS).toBeLessThanOrEqual(12 * 3600); // SQS's maximum visibility timeout
  });

  it('puts undelivered messages back with their own delay, ten per ChangeMessageVisibilityBatch', async () => {
    const { sqs, mock } = queue();
    mock
      .on(ChangeMessageVisibilityBatchCommand)
      .resolvesOnce({
        Successful: [],
        Failed: [{ Id: '3', Code: 'ReceiptHandleIsInvalid', SenderFault: true }],
      })
      .resolves({ Successful: [], Failed: [] });
    const undelivered = Array.from({ length: 11 }, (_, i) => ({
      receiptHandle: `rh-${i}`,
      receiveCount: i + 1,
    }));
    expect(await sqs.delayRedelivery(undelivered)).toBe(1);
    const inputs = mock.commandCalls(ChangeMessageVisibilityBatchCommand).map((c) => c.args[0].input);
    expect(inputs.map((i) => i.Entries!.length)).toEqual([10, 1]);
    expect(inputs[0]!.QueueUrl).toBe(URL);
    expect(inputs[0]!.Entries!.slice(0, 3)).toEqual([
      { Id: '0', ReceiptHandle: 'rh-0', VisibilityTimeout: 30 },
      { Id: '1', ReceiptHandle: 'rh-1', VisibilityTimeout: 60 },
      { Id: '2', ReceiptHandle: 'rh-2', VisibilityTimeout: 120 },
    ]);
    expect(inputs[1]!.Entries).toEqual([{ Id: '10', ReceiptHandle: 'rh-10', VisibilityTimeout: 3600 }]);
  });
});

describe('outbox messages', () => {
  it('round-trip; a bad id, another version or anything else is refused (dead-lettered, not guessed at)', () => {
    for (const m of [...credits(2), 'dbt_0000000000000000']) {
      expect(decodeOutboxMessage(encodeOutboxMessage(m))).toEqual(m);
    }
    for (const body of [
      '{"txId":"crd_0000000000000000"}',
      '{"v":2,"txId":"crd_0000000000000000"}',
      '{"v":1,"txId":"xyz_0000000000000000"}',
      '{"v":1,"txId":"crd_short"}',
      '{"v":1,"txId":"crd_00000000000000#0"}',
      '{"v":1}',
      'not json',
    ]) {
      expect(() => decodeOutboxMessage(body), body).toThrow();
    }
  });
});
