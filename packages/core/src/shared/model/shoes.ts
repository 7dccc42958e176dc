/** The records of the shoes (index.ts: what the model is). */
import type { ShoeCloseReason, ShoeStatus } from '@pyb/contracts';
import type { Burn, ShoeState, TableConfig } from '@pyb/engine';
import type { BeaconRound, ShoeCloseStatement, ShoeStatement, ShoeStateV3, SignedHead } from '@pyb/fairness';
import type { StoredAnchor } from '../ports/time-stamps';

/** OPEN: rounds may open. ENDED: the cut card came out, no more rounds. CLOSING/CLOSED: see closeShoe. */
export type { ShoeStatus };

/**
 * A discard (D1, docs/provably-fair.md §10): a round voided, or a shoe closed early, once the beacon
 * round that fixes what it throws away was published — counted (DiscardsAfterBeacon), in the reports
 * and the feed. `beaconRound`: that round; `publishedAt` its time; `at` when it was discarded.
 */
export interface Discard {
  beaconRound: number;
  publishedAt: string;
  at: string;
}

export interface ShoeRecord {
  shoeId: string;
  tableId: string;
  operatorId: string;
  /** 1-based number of the shoe on its table. */
  number: number;
  status: ShoeStatus;
  /** The table configuration in force for the whole shoe (also inside the signed statement). */
  config: TableConfig;
  /** base64 of the server seed sealed by the key service (context {shoeId, operatorId}). */
  sealedSeed: string;
  commitment: string;
  /**
   * hex, 32 bytes: the key of the shoe's salted digests (trail/digest-salt.ts); never in a public view
   * or the proof. Absent on a shoe opened before digests were salted.
   */
  digestSalt?: string;
  statement: ShoeStatement;
  /** base64 DER ECDSA signature of the statement. */
  signature: string;
  keyId: string;
  /** The operator's client seed (its contribution, given with the first round), if it gave one. */
  clientSeed?: string;
  /** Seeds contributed so far (numbers the next one). */
  contributions?: number;
  /**
   * Set when the first round opens: no seed is taken after it. `beaconRound` is the first beacon round
   * published `marginSeconds` after `at`; its signature fixes the order. `head`: the signed chain head
   * after CONTRIBUTIONS_CLOSED (made right after the close; absent until then).
   */
  contributionsClosed?: {
    at: string;
    seq: number;
    count: number;
    digest: string;
    beaconRound: number;
    head?: SignedHead;
    /** pyb-shoe/3: the head's RFC 3161 anchor, made before the round is published (docs/time-stamps.md). */
    anchor?: StoredAnchor;
  };
  /** Closed early after its beacon round was published (D1). */
  discard?: Discard;
  /** The beacon round once published and recorded (BEACON_RECORDED at `seq`), with the shoe entropy it gives. */
  beacon?: BeaconRound & { seq: number };
  /** hex: the text the random stream takes as its client input (fairness shoeEntropy). */
  entropy?: string;
  /** Rounds opened on this shoe (numbers them). */
  rounds: number;
  /** pyb-shoe/2: the engine's shoe state after the last coup; absent before the first coup (burn not done). */
  state?: ShoeState;
  /**
   * pyb-shoe/3: the draw's state after the last coup or burn (fairness ShoeStateV3: the cards left,
   * the cut card, the cursor; no secret); absent before the shoe's first use of its cards.
   */
  draw?: ShoeStateV3;
  /** The burn, recorded with the first coup. */
  burn?: Burn;
  openedAt: string;
  endedAt?: string;
  closedAt?: string;
  /** hex; revealed at close. */
  serverSeed?: string;
  cutIndex?: number;
  /** The signed audit head (close). */
  close?: { statement: ShoeCloseStatement; signature: string };
  /** The cut card came out (public once it happened): with ONE_MORE_COUP the next round is the last. */
  cutCardOut?: boolean;
  /** Why it was closed before the cut card ended it; absent for an ended shoe. */
  closeReason?: ShoeCloseReason;
  /** Voided rounds, revealed at close: how many, and what they would have netted the house. */
  voids?: { count: number; houseNet: number };
  /**
   * Set when an admin abandoned the shoe (status ABANDONED) after close found its chain broken: why,
   * when, by which key role, and the problems the close found (from the table's TABLE_LOCKED).
   */
  abandoned?: { at: string; reason: string; by: { role: string; operatorId: string }; problems: string[] };
}
