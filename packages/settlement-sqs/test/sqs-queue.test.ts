/** The SQS adapter of the settlement queue: the exact requests it sends, and what it does with failures. */
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SettlementBatch } from '@pyb/core';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { decodeBatch, encodeBatch, SqsSettlementQueue } from '../src/index';

const URL = 'https://sqs.eu-west-1.amazonaws.com/111122223333/pyb-dev-settlement';

function queue() {
  const client = new SQSClient({ region: 'eu-west-1' });
  const mock = mockClient(client);
  return { sqs: new SqsSettlementQueue({ queueUrl: URL, client }), mock };
}

const settleBatches = (n: number): SettlementBatch[] =>
  Array.from({ length: n }, (_, batch) => ({
    kind: 'settle',
    roundId: 'rnd_1',
    batch,
    playerIds: [`p-${batch}-a`, `p-${batch}-b`],
  }));

describe('SqsSettlementQueue requests', () => {
  it('sends ten messages per SendMessageBatch, one batch per message, to the queue URL', async () => {
    const { sqs, mock } = queue();
    mock.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const batches = settleBatches(23);
    await sqs.send(batches);
    const inputs = mock.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input);
    expect(inputs.map((i) => i.Entries!.length)).toEqual([10, 10, 3]);
    expect(inputs[0]).toEqual({
      QueueUrl: URL,
      Entries: batches.slice(0, 10).map((b, i) => ({
        Id: String(i),
        MessageBody: JSON.stringify({ v: 1, ...b }),
      })),
    });
    expect(inputs[2]!.Entries!.map((e) => e.Id)).toEqual(['20', '21', '22']);
    // Every batch went exactly once, and each reads back as itself.
    const bodies = inputs.flatMap((i) => i.Entries!.map((e) => decodeBatch(e.MessageBody!)));
    expect(bodies).toEqual(batches);
  });

  it('sends a collect batch (deferred commission at shoe end) the same way', async () => {
    const { sqs, mock } = queue();
    mock.on(SendMessageBatchCommand).resolves({});
    const batch: SettlementBatch = { kind: 'collect', shoeId: 'shoe_1', playerIds: ['p1', 'p2'] };
    await sqs.send([batch]);
    expect(mock.commandCalls(SendMessageBatchCommand)[0]!.args[0].input).toEqual({
      QueueUrl: URL,
      Entries: [
        { Id: '0', MessageBody: '{"v":1,"kind":"collect","shoeId":"shoe_1","playerIds":["p1","p2"]}' },
      ],
    });
  });

  it('sends again only the entries SQS reports failed (not the sender’s fault)', async () => {
    const { sqs, mock } = queue();
    mock
      .on(SendMessageBatchCommand)
      .resolvesOnce({
        Successful: [],
        Failed: [
          { Id: '1', Code: 'InternalError', SenderFault: false },
          { Id: '3', Code: 'ServiceUnavailable', SenderFault: false },
        ],
      })
      .resolves({ Successful: [], Failed: [] });
    await sqs.send(settleBatches(4));
    const calls = mock
      .commandCalls(SendMessageBatchCommand)
      .map((c) => c.args[0].input.Entries!.map((e) => e.Id));
    expect(calls).toEqual([
      ['0', '1', '2', '3'],
      ['1', '3'],
    ]);
  });

  it('gives up (throws) when SQS keeps failing an entry, or refuses one as the sender’s fault', async () => {
    const failing = queue();
    failing.mock.on(SendMessageBatchCommand).resolves({
      Successful: [],
      Failed: [{ Id: '0', Code: 'InternalError', SenderFault: false }],
    });
    await expect(failing.sqs.send(settleBatches(1))).rejects.toThrow(/after 3 attempts/);
    expect(failing.mock.commandCalls(SendMessageBatchCommand)).toHaveLength(3);

    const refused = queue();
    refused.mock.on(SendMessageBatchCommand).resolves({
      Successful: [],
      Failed: [{ Id: '0', Code: 'InvalidMessageContents', SenderFault: true, Message: 'bad' }],
    });
    await expect(refused.sqs.send(settleBatches(1))).rejects.toThrow(/InvalidMessageContents/);
    expect(refused.mock.commandCalls(SendMessageBatchCommand)).toHaveLength(1);
  });

  it('surfaces an SQS error, and needs the queue URL only to send', async () => {
    const { sqs, mock } = queue();
    mock.on(SendMessageBatchCommand).rejects(Object.assign(new Error('denied'), { name: 'AccessDenied' }));
    await expect(sqs.send(settleBatches(1))).rejects.toThrow('denied');
    const unnamed = new SqsSettlementQueue({ queueUrl: '', client: new SQSClient({ region: 'eu-west-1' }) });
    await expect(unnamed.send(settleBatches(1))).rejects.toThrow(/SETTLEMENT_QUEUE_URL/);
  });
});

describe('settlement messages', () => {
  it('round-trip, and anything else is refused (so it is dead-lettered, not guessed at)', () => {
    for (const b of [
      ...settleBatches(2),
      { kind: 'refund' as const, roundId: 'r', batch: 0, playerIds: ['x'] },
    ]) {
      expect(decodeBatch(encodeBatch(b))).toEqual(b);
    }
    for (const body of [
      '{"kind":"settle","roundId":"r","batch":0,"playerIds":["x"]}', // no version
      '{"v":2,"kind":"settle","roundId":"r","batch":0,"playerIds":["x"]}',
      '{"v":1,"kind":"pay","roundId":"r","batch":0,"playerIds":["x"]}',
      '{"v":1,"kind":"settle","roundId":"r#1","batch":0,"playerIds":["x"]}',
      '{"v":1,"kind":"settle","roundId":"r","batch":-1,"playerIds":["x"]}',
      '{"v":1,"kind":"settle","roundId":"r","batch":0,"playerIds":[]}',
      '{"v":1,"kind":"collect","shoeId":"s","playerIds":["a b"]}',
      'not json',
    ]) {
      expect(() => decodeBatch(body), body).toThrow();
    }
  });
});
