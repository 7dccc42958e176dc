/**
 * Free text the platform stores, hashes or signs (a void note, a wallet reference, a client seed, a
 * table name, any reason): well-formed Unicode without control or bidirectional-formatting
 * characters. A lone UTF-16 surrogate has no UTF-8 form (RFC 8785 cannot serialise it, so an audit
 * event holding one could never be written); a control character or a bidi override (U+202E) makes a
 * stored text print as something else than it is. One definition, used by the API's schemas
 * (@pyb/contracts) and by the use cases (@pyb/core), and by the verifier for client seeds.
 */

/** C0 and C1 controls and DEL (\p{Cc}), and the bidi formatting characters (ALM, LRM, RLM, LRE..RLO, LRI..PDI). */
export const FORBIDDEN_TEXT = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` is not acceptable free text, or undefined when it is. */
export function textProblem(text: string): string | undefined {
  if (LONE_SURROGATE.test(text)) return 'is not well-formed Unicode (a lone surrogate)';
  if (FORBIDDEN_TEXT.test(text)) return 'holds a control or bidirectional-formatting character';
  return undefined;
}

export const isCleanText = (text: string): boolean => textProblem(text) === undefined;

const utf8Length = (text: string): number => new TextEncoder().encode(text).length;

/** The client seed: 1..256 UTF-8 bytes of clean text (docs/provably-fair.md §5). */
export const MIN_CLIENT_SEED_BYTES = 1;
export const CLIENT_SEED_MAX_BYTES = 256;

/** Why `seed` is not a valid client seed, or undefined when it is. */
export function clientSeedProblem(seed: unknown): string | undefined {
  if (typeof seed !== 'string') return 'must be a string';
  const problem = textProblem(seed);
  if (problem) return problem;
  const bytes = utf8Length(seed);
  if (bytes < MIN_CLIENT_SEED_BYTES || bytes > CLIENT_SEED_MAX_BYTES) {
    return `must be ${MIN_CLIENT_SEED_BYTES}-${CLIENT_SEED_MAX_BYTES} UTF-8 bytes (got ${bytes})`;
  }
  return undefined;
}
