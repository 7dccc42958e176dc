import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';

/** The key-policy statement that keeps kms:Sign to the session functions (tests and docs/deploy.md name it). */
export const TOKEN_SIGN_SID = 'SignPlayerTokensOnlyBySessionFunctions';

/**
 * The key that signs players' access tokens (docs/api.md, "Player sessions"): an ECC_NIST_P256 KMS key
 * of its own, apart from the statement-signing keys (a token key that leaked signs no shoe statement).
 * Its private half never leaves KMS: the session functions (open, refresh) call kms:Sign, a few times
 * per player-hour; the functions that admit player tokens call kms:GetPublicKey once per container and
 * verify every request locally. KMS was chosen over a Secrets Manager-held JWK for that reason: no
 * function ever holds the private key. Its key policy denies kms:Sign to every principal but the
 * session functions' roles. Tokens live minutes, so the key need not outlive the stack.
 */
export function playerTokenKey(scope: Construct, stage: string, signers: readonly string[]): kms.Key {
  const key = new kms.Key(scope, 'PlayerTokenKey', {
    description: `Punto y Banca ${stage}: signs players' access tokens (ES256 JWTs)`,
    keySpec: kms.KeySpec.ECC_NIST_P256,
    keyUsage: kms.KeyUsage.SIGN_VERIFY,
    removalPolicy: RemovalPolicy.DESTROY,
    pendingWindow: Duration.days(7),
  });
  key.addToResourcePolicy(
    new iam.PolicyStatement({
      sid: TOKEN_SIGN_SID,
      effect: iam.Effect.DENY,
      principals: [new iam.AnyPrincipal()],
      actions: ['kms:Sign'],
      resources: ['*'],
      ...(signers.length > 0 && { conditions: { ArnNotEquals: { 'aws:PrincipalArn': [...signers] } } }),
    }),
  );
  new kms.Alias(scope, 'PlayerTokenAlias', { aliasName: `alias/pyb-${stage}-player-tokens`, targetKey: key });
  return key;
}
