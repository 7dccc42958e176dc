/**
 * `./scripts/reference-wallet`: the reference operator wallet on its own, for an operator's developers
 * (call it, break it, compare their wallet's answers with it) and for local stacks. Configured by the
 * environment; prints its base URL, its secret and how to fund players and inject faults.
 */
import { pathToFileURL } from 'node:url';
import { ReferenceWallet } from './reference-wallet';

export interface ReferenceWalletEnv {
  /** Default 4100; 0 = a free port. */
  WALLET_PORT?: string;
  /** Comma-separated; the first signs answers. Default: a fixed development secret. */
  WALLET_SECRETS?: string;
  /** Comma-separated player ids funded at start (default player-1,player-2,player-3). */
  WALLET_PLAYERS?: string;
  /** Minor units each of them gets (default 100000) in WALLET_CURRENCY (default EUR). */
  WALLET_FUNDS?: string;
  WALLET_CURRENCY?: string;
}

export const DEV_WALLET_SECRET = 'pyb-dev-seamless-secret-not-for-production-use';

export async function startReferenceWallet(env: ReferenceWalletEnv): Promise<ReferenceWallet> {
  const secrets = (env.WALLET_SECRETS ?? DEV_WALLET_SECRET).split(',').filter(Boolean);
  const funds = Number(env.WALLET_FUNDS ?? 100_000);
  if (!Number.isSafeInteger(funds) || funds < 0)
    throw new Error(`WALLET_FUNDS: not minor units: ${env.WALLET_FUNDS}`);
  const wallet = await ReferenceWallet.start({ secrets, port: Number(env.WALLET_PORT ?? 4100) });
  for (const player of (env.WALLET_PLAYERS ?? 'player-1,player-2,player-3').split(',').filter(Boolean))
    wallet.fund(player, env.WALLET_CURRENCY ?? 'EUR', funds);
  return wallet;
}

export function usage(wallet: ReferenceWallet, secret: string): string {
  const control = wallet.url.replace(/\/pyb$/, '/_control');
  return `Reference operator wallet (docs/seamless-wallet.md)
  base URL: ${wallet.url}      (POST /balance /debit /credit /rollback, HMAC-signed)
  secret:   ${secret}
  books:    curl -s ${control}/books
  fund:     curl -s ${control}/fund -d '{"playerId":"player-4","currency":"EUR","amount":50000}'
  a fault:  curl -s ${control}/faults -d '{"operation":"debit","fault":{"kind":"timeout","apply":true}}'
  clear:    curl -s ${control}/faults -d '{"clear":true}'
Ctrl-C stops it.`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const wallet = await startReferenceWallet(process.env as ReferenceWalletEnv);
  console.log(usage(wallet, (process.env.WALLET_SECRETS ?? DEV_WALLET_SECRET).split(',')[0] ?? ''));
  const stop = () => {
    void wallet.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
