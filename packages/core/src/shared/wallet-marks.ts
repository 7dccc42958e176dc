import type { WalletMode } from '@pyb/contracts';

/**
 * The wallet a position's or a debt's money is in, read off its mark (`wallet`, absent: hosted): the
 * key of the per-mode objects that read or collect it, so no caller tests the mark itself.
 */
export const walletOfMark = (record: { wallet?: 'seamless' }): WalletMode => record.wallet ?? 'hosted';
