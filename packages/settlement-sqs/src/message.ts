import type { SettlementBatch } from '@pyb/core';

/** One SQS message per batch: its JSON. Version-tagged so a consumer can refuse what it does not know. */
export const MESSAGE_VERSION = 1;

export const encodeBatch = (batch: SettlementBatch): string =>
  JSON.stringify({ v: MESSAGE_VERSION, ...batch });

const ID = /^[A-Za-z0-9._:-]{1,64}$/;
const isId = (x: unknown): x is string => typeof x === 'string' && ID.test(x);
const ids = (x: unknown): x is string[] => Array.isArray(x) && x.length > 0 && x.every(isId);

/** Parses a message body back into a batch; throws on anything else (the message is then dead-lettered). */
export function decodeBatch(body: string): SettlementBatch {
  const m = JSON.parse(body) as Record<string, unknown>;
  if (m.v !== MESSAGE_VERSION)
    throw new Error(`settlement message version ${String(m.v)} is not ${MESSAGE_VERSION}`);
  if (m.kind === 'collect' && isId(m.shoeId) && ids(m.playerIds)) {
    return { kind: 'collect', shoeId: m.shoeId, playerIds: m.playerIds };
  }
  if (
    (m.kind === 'settle' || m.kind === 'refund') &&
    isId(m.roundId) &&
    Number.isSafeInteger(m.batch) &&
    (m.batch as number) >= 0 &&
    ids(m.playerIds)
  ) {
    return { kind: m.kind, roundId: m.roundId, batch: m.batch as number, playerIds: m.playerIds };
  }
  throw new Error('not a settlement batch message');
}
