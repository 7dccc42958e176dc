/**
 * A void's note in ROUND_VOIDED (docs/provably-fair.md §11.1): free text an operator wrote, so in a
 * salted shoe only its salted digest enters the public chain (the note itself goes out in the
 * regulator bundle); a shoe opened before digests were salted keeps it in clear, as it always had.
 */
import { noteDigest } from '@pyb/fairness';

export function voidNoteField(
  note: string | undefined,
  salt: string | undefined,
): { note?: string; noteDigest?: string } {
  if (!note) return {};
  return salt === undefined ? { note } : { noteDigest: noteDigest(salt, note) };
}
