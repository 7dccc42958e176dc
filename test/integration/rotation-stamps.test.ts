/**
 * A key rotation is witnessed from outside (F3, docs/provably-fair.md §4.2): the new generation's
 * certificate is time-stamped before it is stored, so the key signs nothing without a token. A TSA
 * that is down: 503 TIME_STAMP_PENDING, nothing stored, the next call certifies afresh. A core with
 * no TSA at all cannot certify a successor (SIGNING_KEY_UNCERTIFIED).
 */
import type { Core } from '@pyb/core';
import { keyCertificateDigest } from '@pyb/fairness';
import { fromHex, verifyInclusion, verifyTimeStampToken } from '@pyb/timestamp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../support/actors';
import { codeOf } from '../support/game';
import { createTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let core: Core;
let tableId: string;
const boss = admin('op-1');

beforeAll(async () => {
  stack = await createTestStack('rotation-stamps');
  core = stack.core;
  ({ tableId } = await core.createTable(boss, { name: 'Rotation', variant: 'mini' }));
  const shoe = await core.openShoe(boss, { tableId });
  await core.closeShoe(boss, { shoeId: shoe.shoeId, reason: 'END_OF_SESSION' });
  stack.keys.rotateSigningKey();
});
afterAll(() => stack?.cleanup());

describe('the rotation to generation 2', () => {
  it('a core with no TSA cannot certify it: SIGNING_KEY_UNCERTIFIED, nothing stored', async () => {
    const noTsa = stack.coreWith({ timeStamper: undefined });
    expect(await codeOf(noTsa.openShoe(boss, { tableId }))).toBe('SIGNING_KEY_UNCERTIFIED');
    expect((await core.signingKey({})).certificates).toHaveLength(1);
  });

  it('the TSA down: 503 TIME_STAMP_PENDING, nothing stored; up again, certified with its token', async () => {
    stack.timeStamps.down = true;
    expect(await codeOf(core.openShoe(boss, { tableId }))).toBe('TIME_STAMP_PENDING');
    expect((await core.signingKey({})).certificates).toHaveLength(1);
    expect((await core.getTable(boss, { tableId })).currentShoeId).toBeNull();
    stack.timeStamps.down = false;
    const shoe = await core.openShoe(boss, { tableId });
    const { certificates } = await core.signingKey({});
    expect(certificates.map((c) => c.generation)).toEqual([1, 2]);
    expect(shoe.statement.keyId).toBe(certificates[1]!.certificate.keyId);
    expect(certificates[0]!.anchor).toBeUndefined();
    const anchor = certificates[1]!.anchor!;
    // The token stamps the root the certificate's digest is under, by the TSA the verifier pins.
    expect(
      verifyInclusion(keyCertificateDigest(certificates[1]!), proofOf(anchor), fromHex(anchor.root)),
    ).toBe(true);
    const verified = await verifyTimeStampToken(
      new Uint8Array(Buffer.from(anchor.tokens[0]!.token, 'base64')),
      {
        imprint: fromHex(anchor.root),
        trusted: [stack.timeStamps.pem],
      },
    );
    expect(Date.parse(verified.genTime)).toBeGreaterThanOrEqual(
      Date.parse(certificates[1]!.certificate.validFrom),
    );
    // Its signatures come after the stamp, so a verifier that moves its start there still accepts them.
    expect(Date.parse(shoe.statement.createdAt)).toBeGreaterThanOrEqual(
      Date.parse(verified.genTime) - (verified.accuracyMs ?? 0),
    );
  });
});

const proofOf = (anchor: { proof: { index: number; size: number; siblings: string[] } }) => ({
  index: anchor.proof.index,
  size: anchor.proof.size,
  siblings: anchor.proof.siblings.map(fromHex),
});
