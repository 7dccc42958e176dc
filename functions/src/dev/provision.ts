/**
 * Creates an operator's API keys (or revokes one). The same script serves the local stack and a
 * deployment: it writes to the principals table named by TABLE_PRINCIPALS (or TABLE_PREFIX, default
 * `pyb`), on DynamoDB Local when DYNAMODB_ENDPOINT is set, else on AWS with the usual credentials.
 *
 *   ./scripts/provision --operator acme --role admin --role operator
 *   ./scripts/provision --operator dgoj --role regulator --supervises acme,beta
 *   ./scripts/provision --revoke pyb_...
 *
 * Keys are printed once (JSON) and stored only as SHA-256 hashes.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ROLES } from '@pyb/contracts';
import { type Clock, hashApiKey, issueApiKey, type PrincipalStore, type Role, systemClock } from '@pyb/core';
import { DynamoPrincipalStore, tableNamesFromEnv } from '@pyb/store-dynamodb';
import { localClientConfig } from '@pyb/store-dynamodb/local';

export interface ProvisionedKey {
  role: Role;
  keyId: string;
  key: string;
}

/** Issues one key per role for an operator (regulator keys supervise `supervises`, default itself). */
export async function provisionOperator(
  principals: PrincipalStore,
  clock: Clock,
  input: { operatorId: string; roles: readonly Role[]; supervises?: readonly string[]; label?: string },
): Promise<ProvisionedKey[]> {
  const issued: ProvisionedKey[] = [];
  for (const role of input.roles) {
    const { key, principal } = await issueApiKey(principals, clock, {
      operatorId: input.operatorId,
      role,
      ...(input.supervises ? { supervises: input.supervises } : {}),
      ...(input.label ? { label: `${input.label} (${role})` } : {}),
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
  ./scripts/provision --revoke KEY
env: TABLE_PRINCIPALS or TABLE_PREFIX (default pyb), DYNAMODB_ENDPOINT for DynamoDB Local, AWS_REGION/credentials otherwise`;

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
    const roles = (values.role ?? []) as Role[];
    if (!values.operator || roles.length === 0 || roles.some((r) => !ROLES.includes(r))) {
      console.error(USAGE);
      return 2;
    }
    const keys = await provisionOperator(store, systemClock, {
      operatorId: values.operator,
      roles,
      ...(values.supervises ? { supervises: values.supervises.split(',').map((s) => s.trim()) } : {}),
      ...(values.label ? { label: values.label } : {}),
    });
    console.log(JSON.stringify({ operatorId: values.operator, keys }, null, 2));
    return 0;
  } finally {
    close();
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
