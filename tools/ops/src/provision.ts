/**
 * Creates an operator's API keys (or revokes one), and sets an operator's wallet mode. The same script
 * serves the local stack and a deployment: it writes to the tables named by TABLE_PRINCIPALS, TABLE_GAME,
 * TABLE_AUDIT (or TABLE_PREFIX, default `pyb`), on DynamoDB Local when DYNAMODB_ENDPOINT is set, else
 * on AWS with the usual credentials.
 *
 *   ./scripts/provision --operator acme --role admin --role operator
 *   ./scripts/provision --operator dgoj --role regulator --supervises acme,beta
 *   ./scripts/provision --operator platform --role admin --platform     (a platform-admin key)
 *   ./scripts/provision --operator casino-b --wallet seamless \
 *       --wallet-url https://wallet.casino-b.example/pyb --wallet-secret pyb-prod/seamless/casino-b
 *   ./scripts/provision --operator casino-b --wallet hosted
 *   ./scripts/provision --revoke pyb_...
 *
 * Keys are printed once (JSON) and stored only as SHA-256 hashes. A wallet change goes through the
 * same use case as POST /v1/operators/{operatorId}/wallet (its checks, its audit record naming
 * `provision:<OS user>`).
 */
import { userInfo } from 'node:os';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ROLES } from '@pyb/contracts';
import {
  type Actor,
  type Clock,
  DomainError,
  hashApiKey,
  issueApiKey,
  type OperatorWalletInput,
  type OperatorWalletView,
  type PrincipalStore,
  type Role,
  systemClock,
} from '@pyb/core';
import { type Ctx, setOperatorWallet } from '@pyb/core/use-cases';
import { buildContext, useCases } from '@pyb/functions/context';
import { DynamoPrincipalStore, tableNamesFromEnv } from '@pyb/store-dynamodb';
import { localClientConfig } from '@pyb/store-dynamodb/local';

export interface ProvisionedKey {
  role: Role;
  keyId: string;
  key: string;
}

/** The operator platform-admin keys are provisioned for (`--operator platform --role admin --platform`). */
export const PLATFORM_OPERATOR = 'platform';

/** Who this script acts as: a platform admin, named in the audit record by the OS user running it. */
export const provisioningActor = (): Actor => ({
  operatorId: PLATFORM_OPERATOR,
  role: 'admin',
  platform: true,
  supervises: [],
  keyId: `provision:${userInfo().username}`,
});

/** Sets an operator's wallet mode as the provisioning script (the dev seed's demo-seamless too). */
export const provisionWallet = (ctx: Ctx, input: OperatorWalletInput): Promise<OperatorWalletView> =>
  setOperatorWallet(ctx, provisioningActor(), input);

/** Issues one key per role for an operator (regulator keys supervise `supervises`, default itself). */
export async function provisionOperator(
  principals: PrincipalStore,
  clock: Clock,
  input: {
    operatorId: string;
    roles: readonly Role[];
    supervises?: readonly string[];
    label?: string;
    platform?: boolean;
  },
): Promise<ProvisionedKey[]> {
  const issued: ProvisionedKey[] = [];
  for (const role of input.roles) {
    const { key, principal } = await issueApiKey(principals, clock, {
      operatorId: input.operatorId,
      role,
      ...(input.supervises ? { supervises: input.supervises } : {}),
      ...(input.label ? { label: `${input.label} (${role})` } : {}),
      ...(input.platform && { platform: true }),
    });
    issued.push({ role, keyId: principal.keyId, key });
  }
  return issued;
}

function principalStoreFromEnv(env = process.env): { store: DynamoPrincipalStore; close(): void } {
  const client = new DynamoDBClient(env.DYNAMODB_ENDPOINT ? localClientConfig(env.DYNAMODB_ENDPOINT) : {});
  const doc = DynamoDBDocumentClient.from(client);
  return {
    store: new DynamoPrincipalStore(doc, tableNamesFromEnv(env).principals),
    close: () => client.destroy(),
  };
}

const USAGE = `usage:
  ./scripts/provision --operator ID --role admin|operator|regulator [--role ...] [--supervises ID,ID] [--label TEXT]
  ./scripts/provision --operator ID --role admin --platform     a platform-admin key (sets operators' wallet modes)
  ./scripts/provision --operator ID --wallet seamless --wallet-url URL --wallet-secret SECRET_NAME_OR_ARN
  ./scripts/provision --operator ID --wallet hosted
  ./scripts/provision --revoke KEY
env: TABLE_PRINCIPALS, TABLE_GAME, TABLE_AUDIT or TABLE_PREFIX (default pyb), DYNAMODB_ENDPOINT for
DynamoDB Local, AWS_REGION/credentials otherwise`;

async function main(argv: string[]): Promise<number> {
  let values: ReturnType<typeof parse>['values'];
  function parse(args: string[]) {
    return parseArgs({
      args,
      options: {
        operator: { type: 'string' },
        role: { type: 'string', multiple: true },
        supervises: { type: 'string' },
        label: { type: 'string' },
        revoke: { type: 'string' },
        platform: { type: 'boolean' },
        wallet: { type: 'string' },
        'wallet-url': { type: 'string' },
        'wallet-secret': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
  }
  try {
    values = parse(argv).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const { store, close } = principalStoreFromEnv();
  try {
    if (values.revoke) {
      const revoked = await store.revokePrincipal(
        await hashApiKey(values.revoke),
        systemClock.now().toISOString(),
      );
      if (!revoked) {
        console.error('no such API key: nothing was revoked (check the key you pasted)');
        return 1;
      }
      console.log(JSON.stringify({ revoked: true }));
      return 0;
    }
    if (values.wallet !== undefined) return await walletCommand(values);
    const roles = (values.role ?? []) as Role[];
    if (
      !values.operator ||
      roles.length === 0 ||
      roles.some((r) => !ROLES.includes(r)) ||
      (values.platform && roles.some((r) => r !== 'admin'))
    ) {
      console.error(USAGE);
      return 2;
    }
    const keys = await provisionOperator(store, systemClock, {
      operatorId: values.operator,
      roles,
      ...(values.supervises ? { supervises: values.supervises.split(',').map((s) => s.trim()) } : {}),
      ...(values.label ? { label: values.label } : {}),
      ...(values.platform && { platform: true }),
    });
    console.log(JSON.stringify({ operatorId: values.operator, keys }, null, 2));
    return 0;
  } finally {
    close();
  }
}

/** `--wallet hosted|seamless`: the operator's wallet mode, through the use case (its checks and audit). */
async function walletCommand(values: {
  operator?: string | undefined;
  wallet?: string | undefined;
  'wallet-url'?: string | undefined;
  'wallet-secret'?: string | undefined;
}): Promise<number> {
  const mode = values.wallet;
  const url = values['wallet-url'];
  const secret = values['wallet-secret'];
  if (
    !values.operator ||
    (mode !== 'hosted' && mode !== 'seamless') ||
    (mode === 'seamless') !== (url !== undefined && secret !== undefined) ||
    (mode === 'hosted' && (url !== undefined || secret !== undefined))
  ) {
    console.error(USAGE);
    return 2;
  }
  const input: OperatorWalletInput =
    mode === 'seamless'
      ? {
          operatorId: values.operator,
          walletMode: 'seamless',
          seamless: { baseUrl: url!, secretRef: secret! },
        }
      : { operatorId: values.operator, walletMode: 'hosted' };
  try {
    const view = await provisionWallet(useCases(buildContext()), input);
    console.log(JSON.stringify(view, null, 2));
    return 0;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    console.error(`${error.code}: ${error.message}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
