import { Duration, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';

/** Every generation of the statement-signing key, oldest first; the last one signs. */
export interface SigningKeys {
  /** The newest generation: the alias and SIGNING_KEY_ID point at it. */
  readonly current: kms.Key;
  /**
   * The keys that may sign: the newest generation, and during a handover deploy the one before it
   * too (it certifies the newest with its signature; docs/deploy.md). Every kms:Sign grant covers these.
   */
  readonly signers: readonly kms.Key[];
  /** Generations 1..N. Each verifies the statements it signed, so kms:GetPublicKey covers all. */
  readonly generations: readonly kms.Key[];
}

/** Construct id of a generation. Generation 1 keeps the id it had before generations existed. */
export const signingKeyId = (generation: number): string =>
  generation === 1 ? 'StatementSigningKey' : `StatementSigningKeyGen${generation}`;

/** Key-policy statement id of a retired generation's refusal to sign. */
export const RETIRED_SID = 'RetiredVerifyOnly';

/**
 * The statement-signing keys, generations 1..`generation`. Asymmetric KMS keys cannot rotate in
 * place, so a rotation adds a key; the earlier ones stay in the template (and the account) because
 * every statement names the key that signed it and is verified with that key, for as long as game
 * recall reaches back.
 *
 * The keys are children of the stack itself, not of a wrapping construct: their logical ids
 * (`StatementSigningKey…`, `StatementSigningKeyGen<n>…`) derive from the construct path, and a new
 * logical id would make CloudFormation create a different key.
 *
 * A retired generation says so in its description and its key policy denies kms:Sign to every
 * principal. IAM already grants Sign on the current key only; the explicit deny makes "verify only"
 * hold against any other policy in the account too (an admin role with kms:* on *), so nobody can
 * sign a back-dated statement with a key verifiers still trust. It is an in-place update of the key
 * (description and policy), reversible by whoever administers the key.
 */
export function statementSigningKeys(
  stack: Stack,
  stage: string,
  generation: number,
  handover = false,
): SigningKeys {
  const generations: kms.Key[] = [];
  // During the handover the previous generation still signs (only the certificate of the next one).
  const firstSigner = handover && generation > 1 ? generation - 1 : generation;
  for (let n = 1; n <= generation; n += 1) {
    const retired = n < firstSigner;
    const key = new kms.Key(stack, signingKeyId(n), {
      description: retired
        ? `Punto y Banca ${stage}: retired: verify only. Signed shoe statements and audit chain heads ` +
          `until generation ${n + 1} took over (ECDSA P-256, generation ${n})`
        : `Punto y Banca ${stage}: signs shoe statements and audit chain heads (ECDSA P-256, generation ${n})`,
      keySpec: kms.KeySpec.ECC_NIST_P256,
      keyUsage: kms.KeyUsage.SIGN_VERIFY,
      removalPolicy: RemovalPolicy.RETAIN,
      pendingWindow: Duration.days(30),
    });
    if (retired) {
      key.addToResourcePolicy(
        new iam.PolicyStatement({
          sid: RETIRED_SID,
          effect: iam.Effect.DENY,
          principals: [new iam.AnyPrincipal()],
          actions: ['kms:Sign'],
          resources: ['*'],
        }),
      );
    }
    generations.push(key);
  }
  const current = generations.at(-1);
  if (current === undefined) throw new Error(`signing key generation must be at least 1, got ${generation}`);
  return { current, generations, signers: generations.slice(firstSigner - 1) };
}
