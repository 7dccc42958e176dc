/**
 * Player access tokens: compact JWS (JWT) signed ES256 by a key the platform keeps (the TokenSigner
 * port: AWS KMS on AWS, a local key file in dev and tests: @pyb/keys player-token-signers.ts) and
 * verified with `jose` (algorithm pinned to ES256, issuer, audience, expiry on the Clock port). The
 * token says whom it acts for; whether it still may (logout, revocation) is the session store's
 * answer, read on every request (sessions.ts).
 */
import { base64url, errors, jwtVerify } from 'jose';
import * as z from 'zod';
import type { PlayerScope } from '../actor';
import type { Clock } from '../ports/runtime';
import { AuthenticationError } from './authenticate';

export const TOKEN_ISSUER = 'pyb';
export const TOKEN_AUDIENCE = 'pyb-player';
/** An access token's life: short, the refresh token gets the next one. */
export const ACCESS_TOKEN_SECONDS = 300;

/** The key that signs player tokens, behind a port (its private half never leaves KMS on AWS). */
export interface TokenSigner {
  /** The `kid` of the tokens it signs now. */
  readonly keyId: string;
  /** The ES256 signature of `signingInput`, as JWS wants it: raw r||s, 64 bytes. */
  sign(signingInput: Uint8Array): Promise<Uint8Array>;
  /** The public key of `keyId` (undefined: a key this service does not know). */
  verifyingKey(keyId: string): Promise<CryptoKey | undefined>;
}

/** A compact JWS is three base64url parts: refused before any verification when it is not that shape. */
const JWS_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
export const looksLikePlayerToken = (text: string): boolean => JWS_SHAPE.test(text) && text.length <= 4096;

const Claims = z.object({
  sub: z.string().min(1).max(64),
  op: z.string().min(1).max(64),
  sid: z.string().min(1).max(64),
  tbl: z.string().min(1).max(64).optional(),
  cur: z.string().length(3).optional(),
  iat: z.number().int(),
  exp: z.number().int(),
});

export interface VerifiedToken {
  operatorId: string;
  scope: PlayerScope;
  issuedAt: Date;
  expiresAt: Date;
}

const text = new TextEncoder();
const seconds = (at: Date): number => Math.floor(at.getTime() / 1000);

/** Signs an access token for the scope, valid from `now` until `expiresAt`. */
export async function signPlayerToken(
  signer: TokenSigner,
  input: { operatorId: string; scope: PlayerScope; now: Date; expiresAt: Date },
): Promise<string> {
  const header = { alg: 'ES256', typ: 'JWT', kid: signer.keyId };
  const { scope } = input;
  const payload = {
    iss: TOKEN_ISSUER,
    aud: TOKEN_AUDIENCE,
    sub: scope.playerId,
    op: input.operatorId,
    sid: scope.sessionId,
    ...(scope.tableId !== undefined && { tbl: scope.tableId }),
    ...(scope.currency !== undefined && { cur: scope.currency }),
    iat: seconds(input.now),
    exp: seconds(input.expiresAt),
  };
  const signingInput = `${base64url.encode(JSON.stringify(header))}.${base64url.encode(JSON.stringify(payload))}`;
  const signature = await signer.sign(text.encode(signingInput));
  return `${signingInput}.${base64url.encode(signature)}`;
}

/** Verifies signature, algorithm, issuer, audience and expiry (on `clock`): whom the token acts for. */
export async function verifyPlayerToken(
  signer: TokenSigner,
  clock: Clock,
  token: string,
): Promise<VerifiedToken> {
  if (!looksLikePlayerToken(token)) throw invalidToken();
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(
      token,
      async ({ kid }) => {
        const key = kid === undefined ? undefined : await signer.verifyingKey(kid);
        if (!key) throw invalidToken();
        return key;
      },
      {
        algorithms: ['ES256'],
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        typ: 'JWT',
        currentDate: clock.now(),
        requiredClaims: ['exp', 'iat', 'sub'],
      },
    ));
  } catch (error) {
    if (error instanceof errors.JWTExpired) {
      throw new AuthenticationError(
        'TOKEN_EXPIRED',
        'the player token expired: refresh it (POST /v1/sessions/refresh)',
      );
    }
    if (error instanceof AuthenticationError) throw error;
    // Anything else jose refuses (signature, claims, shape) is one answer: it does not verify.
    if (error instanceof errors.JOSEError) throw invalidToken();
    throw error;
  }
  const claims = Claims.safeParse(payload);
  if (!claims.success) throw invalidToken();
  const c = claims.data;
  return {
    operatorId: c.op,
    scope: {
      playerId: c.sub,
      sessionId: c.sid,
      ...(c.tbl !== undefined && { tableId: c.tbl }),
      ...(c.cur !== undefined && { currency: c.cur }),
    },
    issuedAt: new Date(c.iat * 1000),
    expiresAt: new Date(c.exp * 1000),
  };
}

const invalidToken = () => new AuthenticationError('TOKEN_INVALID', 'the player token does not verify');
