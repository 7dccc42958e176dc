/**
 * Seamless wallets for the functions that move a seamless operator's money (place-bet, resolve-round,
 * void-round, the settlement and outbox consumers), built on first use from the container:
 *
 * - `walletsOf`: an operator's wallet client (`SeamlessWalletClient`) from its record's base URL and
 *   secret reference — `env:<NAME>` reads the secret from the process environment (the local stack),
 *   anything else is a Secrets Manager secret id (AWSCURRENT signs, AWSPREVIOUS still verifies: a
 *   rotation without downtime; the SDK is loaded only when such a secret is used). The client itself
 *   (@pyb/seamless-wallet: HTTP, signatures, the answers' schemas) is loaded on the first call to a
 *   seamless wallet (`onFirstUse`): a function serving hosted operators never parses it.
 * - `outboxOf`: where pending credits and rollbacks go: the SQS outbox queue in Lambda
 *   (`OUTBOX_QUEUE_URL`, @pyb/outbox-sqs; the deliver-seamless function consumes it), or set by tests;
 *   outside Lambda, an in-process queue running the same delivery use case (`deliverSeamlessTx`).
 */
import {
  InProcessOutboxQueue,
  type OperatorRecord,
  type OutboxQueue,
  onFirstUse,
  type Wallet,
  type WalletOutcome,
  type Wallets,
} from '@pyb/core';
import { deliverSeamlessTx } from '@pyb/core/use-cases';
import { SqsOutboxQueue } from '@pyb/outbox-sqs';
import type { SeamlessSecrets } from '@pyb/seamless-wallet';
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
  const reader = onFirstUse(async () =>
    (await import('@pyb/seamless-wallet/secrets-manager')).secretsManagerSecrets({ secretId: secretRef }),
  );
  return async () => (await reader())();
}

/** The wallet client module, loaded on the first seamless call of the process. */
const walletClient = /* @__PURE__ */ onFirstUse(() => import('@pyb/seamless-wallet'));

/**
 * A Wallet whose client is made on its first call (`make`), then kept. A client that cannot be made
 * (its module not loaded, a base URL that does not parse) answers UNKNOWN, as the client itself does
 * for every failure (the port never rejects): nothing was sent, so a debit is rolled back and a credit
 * or rollback goes back to the outbox, exactly as for a wallet that did not answer.
 */
export function walletOnFirstUse(make: () => Promise<Wallet>): Wallet {
  const wallet = onFirstUse(make);
  const call =
    <O extends keyof Wallet>(operation: O): Wallet[O] =>
    async (request: never): Promise<WalletOutcome> => {
      let client: Wallet;
      try {
        client = await wallet();
      } catch (error) {
        return { outcome: 'UNKNOWN', reason: `no wallet client: ${(error as Error).message}` };
      }
      return client[operation](request);
    };
  return {
    balance: call('balance'),
    debit: call('debit'),
    credit: call('credit'),
    rollback: call('rollback'),
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
      const secrets = secretsOf(context, config.secretRef);
      client = walletOnFirstUse(
        async () => new (await walletClient()).SeamlessWalletClient({ baseUrl: config.baseUrl, secrets }),
      );
      clients.set(key, client);
    }
    return client;
  };
  return context.wallets;
}

export function outboxOf(context: AppContext): OutboxQueue {
  if (context.outboxQueue) return context.outboxQueue;
  const url = context.env.OUTBOX_QUEUE_URL;
  // A record left in a frozen container's in-process queue would never be delivered; a Lambda bundle
  // holds no in-process queue (infra/src/esbuild-options.ts, LAMBDA_BUNDLE_DEFINE).
  if (process.env.PYB_LAMBDA_BUNDLE === '1' || url || context.env.AWS_LAMBDA_FUNCTION_NAME) {
    context.outboxQueue = new SqsOutboxQueue({ queueUrl: url ?? '' });
  } else {
    const local = new InProcessOutboxQueue();
    context.outboxQueue = local;
    local.attach(async (txId) => {
      await deliverSeamlessTx(useCases(context, undefined, seamlessOf(context)), txId);
    });
  }
  return context.outboxQueue;
}

/** The extras a function that moves seamless money passes to `useCases`. */
export const seamlessOf = (context: AppContext): { wallets: Wallets; outbox: OutboxQueue } => ({
  wallets: walletsOf(context),
  outbox: outboxOf(context),
});
