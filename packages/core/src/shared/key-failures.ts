/**
 * Failures of the key service and of the randomness that must lock the table (docs/regulators.md,
 * "Lock-out"), told apart from the ones that only mean "not now":
 *
 * - a key-service error the adapter marks `retryable` (throttled, timed out, KMS-internal) answers 503
 *   KEY_SERVICE_UNAVAILABLE and locks nothing: the same call succeeds once the service answers;
 * - any other key-service error (missing permission, disabled or unknown key, a sealed seed that does
 *   not open, an answer the port cannot honour, a seed that does not match its commitment) is a
 *   KeyServiceFailure: nothing will fix itself, a person must look;
 * - a seed that is not 32 bytes or is one byte repeated (a stuck generator), a beacon round whose
 *   signature does not verify, or a beacon that rejects (a broken setup; a relay that is down answers
 *   PENDING instead) is a RandomnessFailure.
 *
 * The use cases that open a shoe or deal turn the two failures into a table lock (tables/lock-out.ts).
 */
import { DomainError } from './errors';
import { isUnknownSigningKey, type KeyService } from './ports/key-service';

/** What a lock records: where the failure came from and its code. */
export abstract class LockingFailure extends Error {
  abstract readonly source: 'KEY_SERVICE' | 'RANDOMNESS' | 'TIME_STAMP';
  constructor(
    /** The failure's code: recorded as the lock's `cause`. */
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export class KeyServiceFailure extends LockingFailure {
  override readonly name = 'KeyServiceFailure';
  readonly source = 'KEY_SERVICE' as const;
}

export class RandomnessFailure extends LockingFailure {
  override readonly name = 'RandomnessFailure';
  readonly source = 'RANDOMNESS' as const;
}

/**
 * A head that names a beacon round has no RFC 3161 anchor early enough — no TSA answered before the
 * round was published, or the only tokens are dated after it (docs/time-stamps.md §5): that round can
 * never fix the coup, so the table locks and the round is voided with its bets refunded.
 */
export class TimeStampFailure extends LockingFailure {
  override readonly name = 'TimeStampFailure';
  readonly source = 'TIME_STAMP' as const;
}

/** Seconds a caller waits before trying a key-service call the service could not take right now. */
const KEY_SERVICE_RETRY_SECONDS = 2;

const codeOf = (error: unknown): string => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z_]{1,64}$/.test(code) ? code : 'KEY_SERVICE_FAILED';
};

function classified(error: unknown, call: string): Error {
  if (error instanceof DomainError || error instanceof LockingFailure) return error;
  if ((error as { retryable?: unknown } | null)?.retryable === true) {
    return new DomainError(
      'UNAVAILABLE',
      'KEY_SERVICE_UNAVAILABLE',
      `the key service could not take ${call} right now; retry`,
      { retryAfterSeconds: KEY_SERVICE_RETRY_SECONDS },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new KeyServiceFailure(codeOf(error), `key service ${call} failed: ${message}`.slice(0, 500), {
    cause: error,
  });
}

const guarded =
  <A extends unknown[], R>(call: string, fn: (...args: A) => Promise<R>) =>
  async (...args: A): Promise<R> => {
    try {
      return await fn(...args);
    } catch (error) {
      throw classified(error, call);
    }
  };

/** A seed the generator gave that cannot be random: the wrong size, or one byte over and over. */
function seedProblem(seed: Uint8Array): string | undefined {
  if (seed.length !== 32) return `the seed has ${seed.length} bytes, not 32`;
  if (seed.every((b) => b === seed[0])) return 'the seed is one byte repeated (a stuck generator)';
  return undefined;
}

/**
 * The key service with its failures classified (above). `publicKey` passes through untouched: an
 * unknown key id is an answer there (SIGNING_KEY_UNKNOWN), not a failure.
 */
export function classifiedKeys(keys: KeyService): KeyService {
  return {
    generateSeed: guarded('generateSeed', async () => {
      const seed = await keys.generateSeed();
      const problem = seedProblem(seed);
      if (problem) throw new RandomnessFailure('ENTROPY_FAILED', `the key service's seed: ${problem}`);
      return seed;
    }),
    sealSeed: guarded('sealSeed', (seed, context) => keys.sealSeed(seed, context)),
    unsealSeed: guarded('unsealSeed', (sealed, context) => keys.unsealSeed(sealed, context)),
    sign: guarded('sign', (message, keyId) => keys.sign(message, keyId)),
    publicKey: async (keyId) => {
      try {
        return await keys.publicKey(keyId);
      } catch (error) {
        throw isUnknownSigningKey(error) ? error : classified(error, 'publicKey');
      }
    },
  };
}
