import type { Node } from 'constructs';

/** Deployment settings, read from CDK context (`cdk deploy -c stage=prod -c alarmEmail=...`). */
export interface DeployConfig {
  /** Names the stack and every named resource: `PuntoYBanca-<stage>`, `pyb-<stage>-game`, ... */
  stage: string;
  /** Subscribed to the alarm topic when set. */
  alarmEmail: string | undefined;
  /** Retention of the Lambda and API access log groups. */
  logRetentionDays: number;
  /** Steady-state requests per second and burst for the whole HTTP API stage. */
  apiRateLimit: number;
  apiBurstLimit: number;
  /**
   * Which statement-signing key is current. Asymmetric KMS keys cannot rotate in place: raising this
   * number adds a key, points the alias and kms:Sign at it, and keeps every earlier generation in the
   * stack, retired (verify only) but readable, so statements they signed stay verifiable
   * (infra/src/signing-keys.ts, docs/deploy.md).
   */
  signingKeyGeneration: number;
}

export const DEFAULTS = {
  stage: 'dev',
  logRetentionDays: 90,
  apiRateLimit: 500,
  apiBurstLimit: 1000,
  signingKeyGeneration: 1,
} as const;

const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,15}$/;

/** The retention periods CloudWatch Logs accepts. */
const RETENTION_DAYS = new Set([
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
]);

function positiveInt(name: string, raw: unknown, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new Error(`context '${name}' must be a positive integer, got '${String(raw)}'`);
  }
  return value;
}

export function readConfig(node: Node): DeployConfig {
  const stage = String(node.tryGetContext('stage') ?? DEFAULTS.stage);
  if (!STAGE_PATTERN.test(stage)) {
    throw new Error(`context 'stage' must match ${STAGE_PATTERN} (it names tables and keys), got '${stage}'`);
  }
  const logRetentionDays = positiveInt(
    'logRetentionDays',
    node.tryGetContext('logRetentionDays'),
    DEFAULTS.logRetentionDays,
  );
  if (!RETENTION_DAYS.has(logRetentionDays)) {
    throw new Error(`context 'logRetentionDays' must be one of ${[...RETENTION_DAYS].join(', ')}`);
  }
  const alarmEmail = node.tryGetContext('alarmEmail');
  return {
    stage,
    alarmEmail: alarmEmail === undefined || alarmEmail === '' ? undefined : String(alarmEmail),
    logRetentionDays,
    apiRateLimit: positiveInt('apiRateLimit', node.tryGetContext('apiRateLimit'), DEFAULTS.apiRateLimit),
    apiBurstLimit: positiveInt('apiBurstLimit', node.tryGetContext('apiBurstLimit'), DEFAULTS.apiBurstLimit),
    signingKeyGeneration: positiveInt(
      'signingKeyGeneration',
      node.tryGetContext('signingKeyGeneration'),
      DEFAULTS.signingKeyGeneration,
    ),
  };
}
