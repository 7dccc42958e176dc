import type { Node } from 'constructs';

/** Deployment settings, read from CDK context (`cdk deploy -c stage=prod -c alarmEmail=...`). */
export interface DeployConfig {
  /** Names the stack and every named resource: `PuntoYBanca-<stage>`, `pyb-<stage>-game`, ... */
  stage: string;
  /** Subscribed to the alarm topic when set. */
  alarmEmail: string | undefined;
  /**
   * Retention of the Lambda and API access log groups (and the archive's access logs): never less than
   * the retention period; by default the shortest period CloudWatch offers that covers it.
   */
  logRetentionDays: number;
  /**
   * How many years game and audit data are kept and protected from deletion: the backup vault's lock,
   * the backups' lifetime and the Object Lock of archived shoe bundles (infra/src/retention.ts).
   */
  retentionYears: number;
  /** The retention period in days: ⌈years × 365.25⌉ (10 years = 3653 days). */
  retentionDays: number;
  /**
   * COMPLIANCE: once set, nobody (the account root included) can shorten the locks or delete what they
   * protect before the period ends. GOVERNANCE: a principal with the bypass permission can; for
   * throw-away stages only.
   */
  retentionLockMode: 'COMPLIANCE' | 'GOVERNANCE';
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
  retentionYears: 10,
  retentionLockMode: 'COMPLIANCE',
  apiRateLimit: 500,
  apiBurstLimit: 1000,
  signingKeyGeneration: 1,
} as const;

const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,15}$/;

/** The retention periods CloudWatch Logs accepts (9999 = never expire, CDK's RetentionDays.INFINITE). */
const RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
  9999,
];

/** ⌈years × 365.25⌉: a period in days that covers that many calendar years, leap days included. */
export const retentionDaysOf = (years: number): number => Math.ceil(years * 365.25);

/** The shortest log retention CloudWatch offers that is at least `days`. */
export const logRetentionCovering = (days: number): number => RETENTION_DAYS.find((d) => d >= days) ?? 9999;

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
  const retentionYears = positiveInt(
    'retentionYears',
    node.tryGetContext('retentionYears'),
    DEFAULTS.retentionYears,
  );
  if (retentionYears > 99) throw new Error(`context 'retentionYears' must be 1..99, got ${retentionYears}`);
  const retentionDays = retentionDaysOf(retentionYears);
  const logRetentionDays = positiveInt(
    'logRetentionDays',
    node.tryGetContext('logRetentionDays'),
    logRetentionCovering(retentionDays),
  );
  if (!RETENTION_DAYS.includes(logRetentionDays)) {
    throw new Error(`context 'logRetentionDays' must be one of ${RETENTION_DAYS.join(', ')}`);
  }
  if (logRetentionDays < retentionDays) {
    throw new Error(
      `context 'logRetentionDays' (${logRetentionDays}) is shorter than the retention period ` +
        `(${retentionYears} years = ${retentionDays} days): access and API logs are kept at least that long`,
    );
  }
  const lock = String(node.tryGetContext('retentionLockMode') ?? DEFAULTS.retentionLockMode).toUpperCase();
  if (lock !== 'COMPLIANCE' && lock !== 'GOVERNANCE') {
    throw new Error(`context 'retentionLockMode' must be compliance or governance, got '${lock}'`);
  }
  const alarmEmail = node.tryGetContext('alarmEmail');
  return {
    stage,
    alarmEmail: alarmEmail === undefined || alarmEmail === '' ? undefined : String(alarmEmail),
    logRetentionDays,
    retentionYears,
    retentionDays,
    retentionLockMode: lock,
    apiRateLimit: positiveInt('apiRateLimit', node.tryGetContext('apiRateLimit'), DEFAULTS.apiRateLimit),
    apiBurstLimit: positiveInt('apiBurstLimit', node.tryGetContext('apiBurstLimit'), DEFAULTS.apiBurstLimit),
    signingKeyGeneration: positiveInt(
      'signingKeyGeneration',
      node.tryGetContext('signingKeyGeneration'),
      DEFAULTS.signingKeyGeneration,
    ),
  };
}
