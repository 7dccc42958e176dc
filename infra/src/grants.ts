import type { DataTable, KmsOperation, Route, TableAccess } from '@pyb/functions/routes';

/**
 * Least-privilege grants derived from one entry of functions/src/routes.ts. Pure data, so the mapping
 * from "this route reads the game table" to IAM actions is written (and reviewed) once.
 */

/** Reads, including the per-item checks of TransactGetItems (which needs GetItem on each item). */
export const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;

/**
 * Writes. DynamoDB has no "TransactWriteItems" action: a transaction is authorised item by item with
 * PutItem / UpdateItem / DeleteItem / ConditionCheckItem, so these cover the money transactions too.
 */
export const TABLE_WRITE_ACTIONS = [
  ...TABLE_READ_ACTIONS,
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:ConditionCheckItem',
] as const;

/**
 * Append-only writes (the audit table): new items, never an update or a delete of one written. The
 * use cases only ever put audit items under a "must not exist" condition; the role enforces it too.
 */
export const TABLE_APPEND_ACTIONS = [...TABLE_READ_ACTIONS, 'dynamodb:PutItem'] as const;

/**
 * The keys a KMS operation acts on. `seal`: the seed-sealing key. `sign`: the current generation of
 * the statement-signing key only (nothing signs with a retired one). `verify`: every generation of it,
 * since each statement is verified with the key it names. GenerateRandom is not a key operation.
 */
export type KeyName = 'seal' | 'sign' | 'verify';

const KMS_KEY_OF: Record<KmsOperation, KeyName | undefined> = {
  GenerateRandom: undefined,
  Encrypt: 'seal',
  Decrypt: 'seal',
  Sign: 'sign',
  GetPublicKey: 'verify',
};

/**
 * Conditions per key. Sign is pinned to ECDSA P-256 / SHA-256 (brief §5); it is the only operation on
 * `sign`, so the condition cannot deny another one (GetPublicKey requests carry no kms:SigningAlgorithm).
 */
const KEY_CONDITIONS: Partial<Record<KeyName, Record<string, Record<string, string>>>> = {
  sign: { StringEquals: { 'kms:SigningAlgorithm': 'ECDSA_SHA_256' } },
};

export interface TableGrant {
  table: DataTable;
  access: TableAccess;
  actions: readonly string[];
}

export interface KeyGrant {
  /** `undefined` = not resource-scoped (kms:GenerateRandom only accepts `*`). */
  key: KeyName | undefined;
  actions: readonly string[];
  conditions?: Record<string, Record<string, string>>;
}

export function tableActions(access: TableAccess): readonly string[] {
  return access === 'write'
    ? TABLE_WRITE_ACTIONS
    : access === 'append'
      ? TABLE_APPEND_ACTIONS
      : TABLE_READ_ACTIONS;
}

export function tableGrants(route: Pick<Route, 'data'>): TableGrant[] {
  return (Object.entries(route.data) as [DataTable, TableAccess][])
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([table, access]) => ({ table, access, actions: tableActions(access) }));
}

/** KMS operations grouped by the key they act on, in a stable order. */
export function keyGrants(route: Pick<Route, 'kms'>): KeyGrant[] {
  const byKey = new Map<KeyName | undefined, string[]>();
  for (const op of [...new Set(route.kms)].sort()) {
    const key = KMS_KEY_OF[op];
    byKey.set(key, [...(byKey.get(key) ?? []), `kms:${op}`]);
  }
  return [...byKey].map(([key, actions]) => {
    const conditions = key === undefined ? undefined : KEY_CONDITIONS[key];
    return conditions ? { key, actions, conditions } : { key, actions };
  });
}
