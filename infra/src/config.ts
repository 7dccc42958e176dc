import { ID_GRAMMAR, OPERATOR_ID_PATTERN } from '@pyb/contracts';
import type { Node } from 'constructs';
import { DEFAULT_ROUTE_THROTTLE } from './capacity';
import { parseTimeStampAuthorities, type TimeStampAuthority } from './time-stamps';

/** Deployment settings, read from CDK context (`cdk deploy -c stage=prod -c alarmEmail=...`). */
export interface DeployConfig {
  /** Names the stack and every named resource: `PuntoYBanca-<stage>`, `pyb-<stage>-game`, ... */
  stage: string;
  /** Subscribed to the alarm topic when set. */
  alarmEmail: string | undefined;
  /**
   * The game page a player launch sends the browser to (`-c launchUrl=https://play.example/table/`):
   * the operator's server hands it out with the launch token in its fragment. Default `/play`, the site's game client.
   */
  launchUrl: string;
  /**
   * Where players' browsers receive live events (`-c liveBrowserUrl=wss://<account>-ats.iot.<region>.amazonaws.com/mqtt?x-amz-customauthorizer-name=pyb-<stage>-players`):
   * the account's IoT Core endpoint is the account's, so it is given, not derived. Unset: sessions name
   * no push channel and the game page reads the feed on a timer.
   */
  liveBrowserUrl: string | undefined;
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
  /**
   * Steady-state requests per second and burst of each route that has no throttle of its own in the
   * capacity model (infra/src/capacity.ts): admin, regulator and public routes.
   */
  apiRateLimit: number;
  apiBurstLimit: number;
  /**
   * Which statement-signing key is current. Asymmetric KMS keys cannot rotate in place: raising this
   * number adds a key, points the alias and kms:Sign at it, and keeps every earlier generation in the
   * stack, retired (verify only) but readable, so statements they signed stay verifiable
   * (infra/src/signing-keys.ts, docs/deploy.md).
   */
  signingKeyGeneration: number;
  /**
   * Origins (`https://host[:port]`) of front ends on other sites that may call the API from a browser
   * (CORS). The stage's own web app needs none: CloudFront serves it and /v1 on one origin.
   */
  corsOrigins: string[];
  /**
   * The web app's own domain name and its ACM certificate (us-east-1, as CloudFront requires); both or
   * neither. Without them the site is on its *.cloudfront.net name.
   */
  siteDomain: { name: string; certificateArn: string } | undefined;
  /**
   * The handover deploy of a rotation (docs/deploy.md): the previous generation may still sign, so the
   * platform can certify the new one with it; the next deploy, without it, retires the previous.
   */
  signingKeyHandover: boolean;
  /** Seconds an ended shoe may stay unclosed (seed unrevealed) before the alarm. */
  shoeCloseDeadlineSeconds: number;
  /**
   * The operators whose regulator feed the daily job writes (context `feedOperators`, comma-separated
   * operator ids; infra/src/feed.ts). Onboarding an operator adds it here.
   */
  feedOperators: string[];
  /**
   * Operators whose players' balances stay in the operator's own wallet (walletMode `seamless`,
   * docs/seamless-wallet.md): each gets its signing secret in Secrets Manager and a daily
   * reconciliation schedule (infra/src/seamless.ts). Onboarding one: docs/deploy.md.
   */
  seamlessOperators: string[];
  /**
   * The RFC 3161 time-stamp authorities every pyb-shoe/3 head naming a beacon round is anchored by
   * (`-c timeStampAuthorities=URL=FILE.pem,…`; infra/src/time-stamps.ts). None: the synth warns, and
   * the stage refuses to close betting (nothing is dealt unanchored).
   */
  timeStampAuthorities: TimeStampAuthority[];
}

export const DEFAULTS = {
  stage: 'dev',
  retentionYears: 10,
  retentionLockMode: 'COMPLIANCE',
  apiRateLimit: DEFAULT_ROUTE_THROTTLE.rateLimit,
  apiBurstLimit: DEFAULT_ROUTE_THROTTLE.burstLimit,
  signingKeyGeneration: 1,
  shoeCloseDeadlineSeconds: 3600,
} as const;

/** An origin as browsers send it: https, a host name, an optional port, nothing else. */
const ORIGIN_PATTERN =
  /^https:\/\/[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

/** `-c corsOrigins=https://a.example,https://b.example` (or a JSON list in cdk.json). */
export function parseCorsOrigins(raw: unknown): string[] {
  if (raw === undefined || raw === '') return [];
  const list = Array.isArray(raw) ? raw.map(String) : String(raw).split(',');
  const origins = list.map((o) => o.trim()).filter(Boolean);
  for (const origin of origins) {
    if (!ORIGIN_PATTERN.test(origin)) {
      throw new Error(
        `context 'corsOrigins': '${origin}' is not an https origin such as https://casino.example`,
      );
    }
  }
  return [...new Set(origins)];
}

const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const CLOUDFRONT_CERTIFICATE = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]{36}$/;

/** `-c siteDomain=play.casino.example -c siteCertificateArn=arn:aws:acm:us-east-1:...`. */
export function parseSiteDomain(domain: unknown, certificate: unknown): DeployConfig['siteDomain'] {
  const name = domain === undefined || domain === '' ? undefined : String(domain);
  const certificateArn = certificate === undefined || certificate === '' ? undefined : String(certificate);
  if (name === undefined && certificateArn === undefined) return undefined;
  if (name === undefined || certificateArn === undefined) {
    throw new Error("context 'siteDomain' and 'siteCertificateArn' go together: give both or neither");
  }
  if (!DOMAIN_PATTERN.test(name)) throw new Error(`context 'siteDomain': '${name}' is not a domain name`);
  if (!CLOUDFRONT_CERTIFICATE.test(certificateArn)) {
    throw new Error(
      `context 'siteCertificateArn': '${certificateArn}' is not an ACM certificate in us-east-1 (CloudFront takes only those)`,
    );
  }
  return { name, certificateArn };
}

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
  const launchUrl = String(node.tryGetContext('launchUrl') ?? '/play');
  if (!/^(https:\/\/[^\s#]+|\/[^\s#]*)$/.test(launchUrl)) {
    throw new Error(
      `context 'launchUrl' must be an https URL (or a path) without a fragment, got '${launchUrl}'`,
    );
  }
  const liveBrowserUrl = node.tryGetContext('liveBrowserUrl');
  if (liveBrowserUrl !== undefined && !/^(wss:\/\/[^\s#]+|\/[^\s#]*)$/.test(String(liveBrowserUrl))) {
    throw new Error(
      `context 'liveBrowserUrl' must be a wss URL (or a path on the site) without a fragment, got '${liveBrowserUrl}'`,
    );
  }
  return {
    stage,
    alarmEmail: alarmEmail === undefined || alarmEmail === '' ? undefined : String(alarmEmail),
    launchUrl,
    liveBrowserUrl: liveBrowserUrl === undefined ? undefined : String(liveBrowserUrl),
    logRetentionDays,
    retentionYears,
    retentionDays,
    retentionLockMode: lock,
    apiRateLimit: positiveInt('apiRateLimit', node.tryGetContext('apiRateLimit'), DEFAULTS.apiRateLimit),
    apiBurstLimit: positiveInt('apiBurstLimit', node.tryGetContext('apiBurstLimit'), DEFAULTS.apiBurstLimit),
    corsOrigins: parseCorsOrigins(node.tryGetContext('corsOrigins')),
    siteDomain: parseSiteDomain(node.tryGetContext('siteDomain'), node.tryGetContext('siteCertificateArn')),
    signingKeyGeneration: positiveInt(
      'signingKeyGeneration',
      node.tryGetContext('signingKeyGeneration'),
      DEFAULTS.signingKeyGeneration,
    ),
    signingKeyHandover: [true, 'true'].includes(node.tryGetContext('signingKeyHandover')),
    shoeCloseDeadlineSeconds: positiveInt(
      'shoeCloseDeadlineSeconds',
      node.tryGetContext('shoeCloseDeadlineSeconds'),
      DEFAULTS.shoeCloseDeadlineSeconds,
    ),
    feedOperators: parseOperatorIds('feedOperators', node.tryGetContext('feedOperators')),
    seamlessOperators: parseOperatorIds('seamlessOperators', node.tryGetContext('seamlessOperators')),
    timeStampAuthorities: parseTimeStampAuthorities(node.tryGetContext('timeStampAuthorities')),
  };
}

/**
 * A context list of operator ids (`feedOperators`, `seamlessOperators`): comma-separated or a JSON
 * list, each as the API's id grammar has it; deduplicated and sorted, so a deploy does not depend on
 * the order it was written in.
 */
export function parseOperatorIds(context: string, raw: unknown): string[] {
  if (raw === undefined || raw === null || raw === '') return [];
  const ids = (Array.isArray(raw) ? raw.map(String) : String(raw).split(','))
    .map((o) => o.trim())
    .filter(Boolean);
  for (const id of ids) {
    if (!OPERATOR_ID_PATTERN.test(id))
      throw new Error(`context '${context}': '${id}' is not an operator id (${ID_GRAMMAR.operator})`);
  }
  return [...new Set(ids)].sort();
}
