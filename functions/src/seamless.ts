/**
 * Seamless wallets for the functions that move a seamless operator's money (place-bet, resolve-round,
 * void-round, the settlement and outbox consumers), built on first use from the container:
 *
 * - `walletsOf`: an operator's wallet client (`SeamlessWalletClient`) from its record's base URL and
 *   secret reference — `env:<NAME>` reads the secret from the process environment (the local stack),
 *   anything else is a Secrets Manager secret id (AWSCURRENT signs, AWSPREVIOUS still verifies: a
 *   rotation without downtime; the SDK is loaded only when such a secret is used).
 * - `outboxOf`: where pending credits and rollbacks go: the SQS outbox queue in Lambda
 *   (`OUTBOX_QUEUE_URL`, @pyb/outbox-sqs; the deliver-seamless function consumes it), or set by tests;
 *   outside Lambda, an in-process queue running the same delivery use case (`deliverSeamlessTx`).
 */
import {
  InProcessOutboxQueue,
  type OperatorRecord,
  type OutboxQueue,
  type Wallet,
  type Wallets,
} from '@pyb/core';
import { deliverSeamlessTx } from '@pyb/core/use-cases';
import { SqsOutboxQueue } from '@pyb/outbox-sqs';
import { type SeamlessSecrets, SeamlessWalletClient } from '@pyb/seamless-wallet';
import { type AppContext, useCases } from './context';

/** The secret of an operator's wallet, read on every call (the Secrets Manager reader caches it 60 s). */
export function secretsOf(context: AppContext, secretRef: string): () => Promise<SeamlessSecrets> {
  if (secretRef.startsWith('env:')) {
    const name = secretRef.slice(4);
    return async () => {
      const current = context.env[name];
      if (!current) throw new Error(`the seamless wallet secret ${name} is not set`);
      return { current };
    };
  }
  let reader: Promise<() => Promise<SeamlessSecrets>> | undefined;
  return async () => {
    reader ??= import('@pyb/seamless-wallet/secrets-manager').then((m) =>
      m.secretsManagerSecrets({ secretId: secretRef }),
    );
    return (await reader)();
  };
}

export function walletsOf(context: AppContext): Wallets {
  if (context.wallets) return context.wallets;
  const clients = new Map<string, Wallet>();
  context.wallets = (operator: OperatorRecord) => {
    const config = operator.seamless;
    if (!config) throw new Error(`operator ${operator.operatorId} has no seamless wallet configured`);
    const key = `${operator.operatorId}\n${config.baseUrl}\n${config.secretRef}`;
    let client = clients.get(key);
    if (!client) {
      client = new SeamlessWalletClient({
        baseUrl: config.baseUrl,
        secrets: secretsOf(context, config.secretRef),
      });
      clients.set(key, client);
    }
    return client;
  };
  return context.wallets;
}

export function outboxOf(context: AppContext): OutboxQueue {
  if (context.outboxQueue) return context.outboxQueue;
  const url = context.env.OUTBOX_QUEUE_URL;
  if (url || context.env.AWS_LAMBDA_FUNCTION_NAME) {
    // A record left in a frozen container's in-process queue would never be delivered.
    context.outboxQueue = new SqsOutboxQueue({ queueUrl: url ?? '' });
    return context.outboxQueue;
  }
  const local = new InProcessOutboxQueue();
  context.outboxQueue = local;
  local.attach(async (txId) => {
    await deliverSeamlessTx(useCases(context, undefined, seamlessOf(context)), txId);
  });
  return local;
}

/** The extras a function that moves seamless money passes to `useCases`. */
export const seamlessOf = (context: AppContext): { wallets: Wallets; outbox: OutboxQueue } => ({
  wallets: walletsOf(context),
  outbox: outboxOf(context),
});
