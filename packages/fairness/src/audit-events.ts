/** An audit chain event as the verifier reads it (verify-audit.ts), and the evidence it is read from. */
import type { ShoeBundle, ShoeProof } from './bundle';

export type Evidence = ShoeBundle | ShoeProof;
export type Event = Record<string, unknown> & {
  seq?: unknown;
  type?: unknown;
  roundId?: unknown;
  at?: unknown;
  data?: unknown;
};
export const dataOf = (event: Event | undefined): Record<string, unknown> =>
  typeof event?.data === 'object' && event.data !== null ? (event.data as Record<string, unknown>) : {};
