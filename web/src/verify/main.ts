/**
 * The verifier (players, no key): a closed shoe's public proof fetched by id, or its bundle dropped on
 * the page, or its seeds pasted; recomputed in the browser with the fairness library's verifier; each
 * check listed; a coup's cards drawn; the verdict on #verdict[data-verdict].
 */
import '../styles.css';
import { type BeaconPin, type Check, parseBeaconPin, type SignedKeyCertificate } from '@pyb/fairness';
import { ApiError, get, seg } from '../lib/api';
import { outcomeText, renderCoup } from '../lib/coup';
import { byId, fill, h } from '../lib/dom';
import { describeError } from '../lib/problems';
import { renderPanel } from '../lib/roads';
import { HANDOFF_KEY } from '../lib/session';
import type { SigningKey } from '../lib/types';
import { showError } from '../lib/ui';
import { evidenceOf } from './evidence';
import {
  type DealtShoe,
  dealFromBundle,
  type PastedSeeds,
  parseContributions,
  verifySeeds,
} from './shoe-view';
import { splitCertificates, splitPem, type TrustedKey, type Verdict, verifyWithTrust } from './verdict';

/** The public proof of a closed shoe (#10); until it exists the page degrades to a dropped bundle. */
export const proofPath = (shoeId: string): string => `/v1/shoes/${seg(shoeId)}/proof`;

const message = byId('message');
const result = byId('result');
const verdictNode = byId('verdict');
const proofStatus = byId('proof-status');

// ---- inputs -------------------------------------------------------------------------------------

byId<HTMLFormElement>('by-id').addEventListener('submit', (event) => {
  event.preventDefault();
  const shoeId = byId<HTMLInputElement>('shoe-id').value.trim();
  if (shoeId) void fetchProof(shoeId);
});

const fileInput = byId<HTMLInputElement>('bundle-file');
fileInput.addEventListener('change', () => {
  const file = fileInput.files?.[0];
  if (file) void verifyFile(file);
});

const drop = byId('drop');
drop.addEventListener('dragover', (event) => {
  event.preventDefault();
  drop.classList.add('drop-over');
});
drop.addEventListener('dragleave', () => drop.classList.remove('drop-over'));
drop.addEventListener('drop', (event) => {
  event.preventDefault();
  drop.classList.remove('drop-over');
  const file = event.dataTransfer?.files[0];
  if (file) void verifyFile(file);
});

byId<HTMLFormElement>('seeds').addEventListener('submit', (event) => {
  event.preventDefault();
  const value = (id: string) => byId<HTMLInputElement>(id).value.trim();
  start('Verifying the seeds…');
  let contributions: PastedSeeds['contributions'];
  try {
    contributions = parseContributions(byId<HTMLTextAreaElement>('contributions').value);
  } catch (error) {
    return fail((error as Error).message);
  }
  const seeds: PastedSeeds = {
    serverSeed: value('server-seed').toLowerCase(),
    contributions,
    beacon: {
      chainHash: value('beacon-chain').toLowerCase(),
      round: Number(value('beacon-round')),
      signature: value('beacon-signature').toLowerCase(),
    },
    shoeId: value('seed-shoe-id'),
    decks: Number(value('decks')),
    cutCard: { minCardsBehind: Number(value('min-behind')), maxCardsBehind: Number(value('max-behind')) },
    afterCutCard: byId<HTMLSelectElement>('after-cut').value as 'FINISH_COUP' | 'ONE_MORE_COUP',
  };
  const outcome = verifySeeds(seeds, value('commitment') || undefined);
  show(outcome.verdict, outcome.checks, outcome.shoe, `the seeds of shoe ${seeds.shoeId}`);
});

async function verifyFile(file: File): Promise<void> {
  start(`Verifying ${file.name}…`);
  let bundle: unknown;
  try {
    bundle = JSON.parse(await file.text());
  } catch {
    return fail(`${file.name} is not JSON: drop the shoe's audit bundle (a .json file).`);
  }
  await verifyInput(bundle, file.name);
}

async function fetchProof(shoeId: string): Promise<void> {
  start(`Fetching the public proof of ${shoeId}…`);
  proofStatus.dataset.proof = 'loading';
  let proof: unknown;
  try {
    proof = await get<unknown>(proofPath(shoeId));
  } catch (error) {
    const unavailable =
      error instanceof ApiError && (error.code === 'ROUTE_NOT_FOUND' || error.code === 'HTTP_404');
    proofStatus.dataset.proof = unavailable ? 'unavailable' : 'error';
    proofStatus.textContent = unavailable
      ? `This API does not publish public shoe proofs yet (GET ${proofPath(shoeId)} is not there). Ask the operator or a regulator for the shoe's audit bundle and drop it below.`
      : `The proof of ${shoeId} could not be fetched: ${describeError(error)}`;
    result.hidden = true;
    return;
  }
  proofStatus.dataset.proof = 'fetched';
  proofStatus.textContent = `Public proof of ${shoeId} fetched from ${location.origin} (no player id, no amount in it).`;
  await verifyInput(proof, `the public proof of ${shoeId}`);
}

/**
 * The keys, key certificates, beacon networks and time-stamp authorities to trust: the ones pasted,
 * (keys, beacon networks, TSA certificates), else the ones this site publishes (`/v1/signing-key` for the key ids of the shoe, every generation's
 * certificate, the beacon network it names, by all its fields, and its TSAs' certificates). drand quicknet needs no trust of ours: the library
 * knows its network.
 */
async function trusted(bundle: unknown): Promise<{
  keys: TrustedKey[];
  beacons: BeaconPin[];
  certificates: SignedKeyCertificate[] | undefined;
  tsas: string[];
}> {
  const pastedBeacons = byId<HTMLInputElement>('trusted-beacon')
    .value.split(/\s+/)
    .filter((line) => line.length > 0)
    .flatMap((line) => {
      try {
        return [parseBeaconPin(line)];
      } catch {
        return [];
      }
    });
  const pasted = splitPem(byId<HTMLTextAreaElement>('trusted-key').value);
  // Pasted TSA certificates replace the site's: a reader who pins a TSA of his own trusts only it.
  const pastedTsas = splitCertificates(byId<HTMLTextAreaElement>('trusted-tsa').value);
  const b = bundle as { statement?: { keyId?: unknown }; audit?: { close?: { keyId?: unknown } } };
  const ids = [...new Set([b?.statement?.keyId, b?.audit?.close?.keyId])].filter(
    (id): id is string => typeof id === 'string' && id.length > 0,
  );
  const keys: TrustedKey[] = pasted.map((pem) => ({ pem, source: 'the key you pasted' }));
  const beacons: BeaconPin[] = [...pastedBeacons];
  let certificates: SignedKeyCertificate[] | undefined;
  const tsas = new Set<string>(pastedTsas);
  for (const keyId of ids) {
    try {
      const key = await get<SigningKey>('/v1/signing-key', { query: { keyId } });
      if (pasted.length === 0) keys.push({ pem: key.pem, source: `${location.host}/v1/signing-key` });
      if (pastedBeacons.length === 0 && key.beacon) beacons.push(key.beacon);
      certificates ??= key.certificates as SignedKeyCertificate[];
      if (pastedTsas.length === 0)
        for (const tsa of key.timeStampAuthorities ?? []) for (const pem of tsa.certificates) tsas.add(pem);
    } catch {
      // Not published here: the shoe's key stays untrusted, and the trust check says so.
    }
  }
  return { keys, beacons, certificates, tsas: [...tsas] };
}

async function verifyInput(bundle: unknown, what: string): Promise<void> {
  const trust = await trusted(bundle);
  const verification = await verifyWithTrust(
    bundle,
    trust.keys,
    trust.beacons,
    trust.certificates,
    trust.tsas,
  );
  show(verification.verdict, verification.checks, dealFromBundle(bundle), what, verification.trust);
  fill(byId('evidence'), evidenceOf(bundle, verification.checks));
}

// ---- output -------------------------------------------------------------------------------------

function start(text: string): void {
  showError(message, undefined);
  result.hidden = false;
  verdictNode.removeAttribute('data-verdict');
  verdictNode.className = 'verdict';
  verdictNode.textContent = text;
  for (const id of ['summary', 'evidence', 'checks', 'coups', 'roads']) byId(id).replaceChildren();
}

function fail(text: string): void {
  result.hidden = true;
  showError(message, new Error(text));
}

const VERDICT_WORDS: Record<Verdict, string> = {
  verified: 'Verified: every check passed, and the shoe is signed by a key you trust.',
  untrusted: 'Untrusted: everything is consistent, but nothing ties it to a key you trust.',
  failed: 'Failed: the shoe does not check out.',
};

function groupOf(id: string): string {
  const round = /^(?:audit\.)?round\.(\d+)\./.exec(id);
  if (round) return `Round ${round[1]}`;
  if (id.startsWith('audit.')) return 'Audit chain and close';
  if (id.startsWith('heads.')) return 'Signed heads (receipts)';
  if (id.startsWith('beacon.')) return 'Randomness beacon';
  if (id.startsWith('contributions.')) return 'Player seeds';
  if (id.startsWith('keys.') || id.startsWith('statement.')) return 'Keys and signed statement';
  return 'Shoe: seeds, order, burn and cut';
}

function checkList(checks: readonly Check[]): HTMLElement {
  const groups = new Map<string, Check[]>();
  for (const check of checks) {
    const group = groupOf(check.id);
    groups.set(group, [...(groups.get(group) ?? []), check]);
  }
  return h(
    'div',
    { class: 'check-groups' },
    [...groups].map(([group, list]) => {
      const failed = list.filter((c) => !c.ok).length;
      return h(
        'details',
        { class: 'check-group', open: failed > 0 || !group.startsWith('Round'), 'data-failed': failed },
        h(
          'summary',
          null,
          `${group}: ${list.length} check${list.length === 1 ? '' : 's'}, `,
          h('span', { class: failed ? 'fail' : 'pass' }, failed ? `${failed} failed` : 'all pass'),
        ),
        h(
          'ul',
          { class: 'checks' },
          list.map((c) =>
            h(
              'li',
              { 'data-check': c.id, 'data-ok': String(c.ok), 'data-untrusted': c.untrusted ? 'true' : null },
              h('span', { class: c.ok ? 'pass' : 'fail' }, c.ok ? 'PASS' : 'FAIL'),
              c.untrusted && h('span', { class: 'untrusted' }, ' (untrusted)'),
              ' ',
              h('code', null, c.id),
              ' ',
              c.detail,
            ),
          ),
        ),
      );
    }),
  );
}

function coupBrowser(shoe: DealtShoe): HTMLElement {
  const select = h(
    'select',
    { id: 'coup-pick' },
    shoe.coups.map((c, i) =>
      h(
        'option',
        { value: i, 'data-beacon': c.beacon ?? null },
        c.beacon === undefined
          ? `Coup ${c.index + 1}: ${outcomeText(c.coup)}`
          : `Coup ${c.index + 1} (round ${c.round}, beacon round ${c.beacon}): ${outcomeText(c.coup)}`,
      ),
    ),
  );
  const shown = h('div', { class: 'coup-shown' });
  const draw = () => {
    const pick = shoe.coups[Number(select.value)];
    if (pick)
      fill(
        shown,
        renderCoup(
          pick.coup,
          `Coup ${pick.index + 1}, cards ${pick.start}–${pick.start + pick.coup.steps.filter((s) => s.card).length - 1} of the shoe${pick.beacon === undefined ? '' : `, drawn from beacon round ${pick.beacon}`}`,
        ),
      );
  };
  select.addEventListener('change', draw);
  draw();
  return h(
    'section',
    { 'aria-labelledby': 'coups-title' },
    h(
      'h3',
      { id: 'coups-title', 'data-scheme': shoe.scheme },
      shoe.scheme === 'pyb-shoe/3'
        ? `The coups played: ${shoe.coups.length}, each drawn from the beacon round named when its betting closed`
        : `The shoe as its seeds deal it: ${shoe.coups.length} coups`,
    ),
    h(
      'p',
      null,
      `${shoe.cards} cards; burn: ${shoe.burn.shown} shown, ${shoe.burn.burned} burned; the cut card before card ${shoe.cutIndex}.`,
      shoe.scheme === 'pyb-shoe/3'
        ? ` Only the coups played were ever drawn (from the cards left at the time)${shoe.burns ? `; ${shoe.burns} dealer-error burn${shoe.burns === 1 ? '' : 's'} drew cards unplayed` : ''}.`
        : '',
    ),
    h('p', { class: 'field' }, h('label', { for: 'coup-pick' }, 'Coup to draw'), select),
    shown,
  );
}

function show(
  verdict: Verdict,
  checks: readonly Check[],
  shoe: DealtShoe | undefined,
  what: string,
  trust?: string,
): void {
  result.hidden = false;
  const failed = checks.filter((c) => !c.ok);
  const untrusted = checks.filter((c) => c.ok && c.untrusted);
  verdictNode.className = `verdict verdict-${verdict}`;
  verdictNode.textContent = VERDICT_WORDS[verdict];
  verdictNode.dataset.verdict = verdict;
  fill(
    byId('summary'),
    h(
      'p',
      null,
      `Checked ${what}: ${checks.length - failed.length} of ${checks.length} checks passed.`,
      failed.length > 0 ? ` First not passed: ${failed[0]!.id} — ${failed[0]!.detail}` : '',
      untrusted.length > 0 && failed.length === 0
        ? ` Resting on what you did not say to trust: ${untrusted.map((c) => c.id).join(', ')}.`
        : '',
    ),
    trust && h('p', { id: 'trust' }, trust),
  );
  fill(byId('checks'), h('h3', null, 'Every check'), checkList(checks));
  fill(byId('coups'), shoe && coupBrowser(shoe));
  fill(byId('roads'), shoe && [h('h3', null, 'Results panel of the shoe'), renderPanel(shoe.panel)]);
  verdictNode.focus({ preventScroll: true });
}

// ---- start --------------------------------------------------------------------------------------

verdictNode.tabIndex = -1;
const params = new URLSearchParams(location.search);
const shoeParam = params.get('shoe');
if (params.get('from') === 'session') {
  const saved = sessionStorage.getItem(HANDOFF_KEY);
  sessionStorage.removeItem(HANDOFF_KEY);
  if (saved) {
    start('Verifying the bundle from the regulator viewer…');
    void verifyInput(JSON.parse(saved), 'the bundle from the regulator viewer');
  }
} else if (shoeParam) {
  byId<HTMLInputElement>('shoe-id').value = shoeParam;
  void fetchProof(shoeParam);
}
