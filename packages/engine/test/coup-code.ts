/**
 * Readers of the coup code playCoupFrom packs (src/coup.ts): winner in bits 0-1, totals in 2-9, draws,
 * pairs and naturals in 10-17, cards used in 18-20. Only the tests unpack a code field by field.
 */
import type { Winner } from '../src/coup';

export const codeWinner = (code: number): Winner => (['PLAYER', 'BANKER', 'TIE'] as const)[code & 3]!;
export const codePlayerTotal = (code: number): number => (code >> 2) & 15;
export const codeBankerTotal = (code: number): number => (code >> 6) & 15;
export const codePlayerDrew = (code: number): boolean => (code & (1 << 10)) !== 0;
export const codeBankerDrew = (code: number): boolean => (code & (1 << 11)) !== 0;
export const codePlayerPair = (code: number): boolean => (code & (1 << 12)) !== 0;
export const codeBankerPair = (code: number): boolean => (code & (1 << 13)) !== 0;
export const codePlayerSuitedPair = (code: number): boolean => (code & (1 << 14)) !== 0;
export const codeBankerSuitedPair = (code: number): boolean => (code & (1 << 15)) !== 0;
export const codePlayerNatural = (code: number): boolean => (code & (1 << 16)) !== 0;
export const codeBankerNatural = (code: number): boolean => (code & (1 << 17)) !== 0;
/** Bits 2-11: totals and draws (src/events.ts `leafKey`). */
export const codeLeaf = (code: number): number => (code >> 2) & 0x3ff;
