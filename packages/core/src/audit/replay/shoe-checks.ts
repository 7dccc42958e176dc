/** The audit checks of a shoe: its signed statement, its reveal, its signed head, its whole chain. */
import { showCard } from '@pyb/engine';
import { closeStatementBytes, statementBytes, verifyBase64Signature } from '@pyb/fairness';
import type { ReplayProblem } from '../../shared';
import { same } from '../../shared';
import { checkChainPrefix } from '../../trail';
import { Problems, type ShoeEvidence } from './evidence';
import { verifiedWith } from './signing-keys';

// ---- the shoe: its signed statement, its reveal, its signed head ---------------------------------

/**
 * The signed statement: its signature by the key it names, the shoe record and the chain's
 * SHOE_OPENED agreeing with it, and naming the shoe, the table and the operator `of` (the round's).
 */
export async function statementProblems(
  { shoe, log, keys }: ShoeEvidence,
  of: { tableId: string; operatorId: string } = shoe,
): Promise<ReplayProblem[]> {
  const p = new Problems();
  const { statement } = shoe;
  const valid = await verifiedWith(
    keys.statement,
    'the shoe statement',
    (spki) => verifyBase64Signature(statementBytes(statement), shoe.signature, spki),
    (detail) => p.add('SIGNING_KEY_UNKNOWN', detail),
  );
  if (valid === false) {
    p.add(
      'STATEMENT_SIGNATURE',
      `the shoe statement's signature does not verify with key ${statement.keyId}, the key it names: the statement or its signature was altered`,
    );
  }
  if (shoe.keyId !== statement.keyId) {
    p.add(
      'STATEMENT_MISMATCH',
      `the shoe record names key ${shoe.keyId}, its signed statement ${statement.keyId}`,
    );
  }
  if (
    statement.shoeId !== shoe.shoeId ||
    statement.operatorId !== of.operatorId ||
    statement.tableId !== of.tableId ||
    statement.commitment !== shoe.commitment
  ) {
    p.add('STATEMENT_MISMATCH', 'the signed statement names another shoe, table, operator or commitment');
  }
  if (!same(statement.table, shoe.config)) {
    p.add('CONFIG_MISMATCH', "the shoe's table configuration differs from the one its statement signed");
  }
  const opened = log.events[0];
  const data = opened?.event?.data as { statement?: unknown; signature?: unknown } | undefined;
  if (opened?.event?.type !== 'SHOE_OPENED') {
    p.add('EVENT_MISSING', "the shoe's audit chain does not start with SHOE_OPENED", 0);
  } else if (!same(data?.statement, statement) || data?.signature !== shoe.signature) {
    p.add(
      'STATEMENT_MISMATCH',
      'the statement published in the chain (SHOE_OPENED) differs from the shoe record',
      opened.record.seq,
    );
  }
  return p.list;
}

/** The shoe re-dealt from the revealed seeds: what stops it, and its burn against the recorded one. */
export function dealProblems({ shoe, reveal }: ShoeEvidence): ReplayProblem[] {
  if (reveal.status === 'PENDING') return [];
  const p = new Problems();
  p.addAll(reveal.deal);
  const dealt = reveal.shoe;
  if (!dealt) {
    // Without a re-dealt shoe: either a problem above says why, or the shoe was never played.
    if (p.list.length === 0 && reveal.seed.length > 0)
      p.add('SHOE_NOT_RECOMPUTED', 'the shoe cannot be re-dealt: the revealed seed is not the committed one');
    return p.list;
  }
  if (shoe.burn && (shoe.burn.shown !== dealt.burn.shown || shoe.burn.burned !== dealt.burn.burned)) {
    p.add(
      'BURN_MISMATCH',
      `the seeds burn ${showCard(dealt.burn.shown)} shown and ${dealt.burn.burned} burned, the shoe records ${showCard(shoe.burn.shown)} and ${shoe.burn.burned}`,
    );
  }
  return p.list;
}

/** The chain head signed at close: over the whole chain, by the key the close statement names. */
export async function headProblems({ shoe, log, keys }: ShoeEvidence): Promise<ReplayProblem[]> {
  const p = new Problems();
  const close = shoe.close;
  const events = log.events;
  if (!close) {
    p.add('HEAD_SIGNATURE', 'the shoe is closed but has no signed chain head');
    return p.list;
  }
  const head = events.at(-1)?.record.hash;
  if (
    close.statement.head !== head ||
    close.statement.length !== events.length ||
    close.statement.commitment !== shoe.commitment ||
    close.statement.shoeId !== shoe.shoeId
  ) {
    p.add(
      'HEAD_MISMATCH',
      `the signed head covers ${close.statement.length} events ending ${close.statement.head}; the chain has ${events.length} ending ${head ?? '(none)'}`,
    );
  }
  // The shoe's evidence looked up the key this close statement names.
  const lookup = keys.close ?? { keyId: close.statement.keyId, key: undefined };
  const valid = await verifiedWith(
    lookup,
    'the close statement',
    (spki) => verifyBase64Signature(closeStatementBytes(close.statement), close.signature, spki),
    (detail) => p.add('SIGNING_KEY_UNKNOWN', detail),
  );
  if (valid === false)
    p.add(
      'HEAD_SIGNATURE',
      `the signature of the chain head does not verify with key ${close.statement.keyId}, the key it names`,
    );
  return p.list;
}

/** The whole chain, from its genesis (the commitment) to its last event. */
export const wholeChainProblems = ({ shoe, log }: ShoeEvidence): ReplayProblem[] =>
  checkChainPrefix(log, shoe.shoeId, shoe.commitment, log.events.length - 1);
