import { ID_GRAMMAR, OPERATOR_ID_PATTERN as OPERATOR_ID } from '@pyb/contracts';
import type { Role } from '../actor';
import { DomainError } from '../errors';
import { generateApiKey } from './api-key';
import type { Principal, PrincipalStore } from './principal';

export interface IssueApiKeyInput {
  operatorId: string;
  role: Role;
  /** Regulators: the operators they supervise (defaults to their own operator). */
  supervises?: readonly string[];
  label?: string;
  /** An admin key of the platform itself (only with role admin): it may set operators' wallet modes. */
  platform?: boolean;
}

export interface IssuedApiKey {
  /** Shown once: only its hash is stored. */
  key: string;
  principal: Principal;
}

/** Creates an API key for an operator (operator tooling: scripts/provision.ts, the dev seed). */
export async function issueApiKey(
  store: PrincipalStore,
  clock: { now(): Date },
  input: IssueApiKeyInput,
): Promise<IssuedApiKey> {
  if (!OPERATOR_ID.test(input.operatorId)) {
    throw new DomainError('INVALID', 'OPERATOR_ID_INVALID', `operator ids are ${ID_GRAMMAR.operator}`);
  }
  const supervises =
    input.role === 'regulator' ? [...new Set(input.supervises ?? [input.operatorId])] : ([] as string[]);
  for (const id of supervises) {
    if (!OPERATOR_ID.test(id))
      throw new DomainError('INVALID', 'OPERATOR_ID_INVALID', `bad operator id ${id}`);
  }
  if (input.platform && input.role !== 'admin') {
    throw new DomainError('INVALID', 'INVALID_INPUT', 'only an admin key can be a platform key');
  }
  const { key, keyHash, keyId } = await generateApiKey();
  const principal: Principal = {
    keyHash,
    keyId,
    operatorId: input.operatorId,
    role: input.role,
    supervises,
    label: input.label ?? `${input.operatorId} ${input.role}`,
    ...(input.platform && { platform: true as const }),
    createdAt: clock.now().toISOString(),
  };
  await store.putPrincipal(principal);
  return { key, principal };
}
