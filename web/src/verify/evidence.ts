/**
 * What a shoe's randomness and receipts rest on, listed from the proof or bundle as given: the drand
 * beacon round, the player seeds mixed into the order, and the signed heads (one when the seeds
 * closed, one per round settled or voided; in a pyb-shoe/3 shoe one per close of betting too), each
 * next to the library's check of it. Nothing is decided here: the verdict is the library's.
 */
import { type Check, QUICKNET } from '@pyb/fairness';
import { h } from '../lib/dom';
import { mono } from '../lib/ui';

interface Evidence {
  statement?: { scheme?: string; beacon?: { chainHash?: string; period?: number }; keyId?: string };
  beacon?: { round?: number; signature?: string };
  contributions?: { index: number; kind: string; seed: string }[];
  heads?: { statement: { seq: number; type: string; roundId: string | null; keyId: string; at: string } }[];
  rounds?: { roundId: string; number: number }[];
}

const short = (hex: string | undefined, n = 16) => (hex ? `${hex.slice(0, n)}…` : '—');

function verdictOf(checks: readonly Check[], id: string): HTMLElement {
  const check = checks.find((c) => c.id === id);
  if (!check) return h('span', null, 'not checked');
  return h(
    'span',
    { class: check.ok ? 'pass' : 'fail', 'data-evidence-check': id, title: check.detail },
    check.ok ? (check.untrusted ? 'PASS (untrusted)' : 'PASS') : 'FAIL',
  );
}

const scroll = (label: string, table: HTMLElement) =>
  h('div', { class: 'table-scroll', tabindex: 0, role: 'group', 'aria-label': label }, table);

export function evidenceOf(input: unknown, checks: readonly Check[]): HTMLElement | undefined {
  const e = (input ?? {}) as Evidence;
  if (!e.beacon || !Array.isArray(e.contributions) || !Array.isArray(e.heads)) return undefined;
  const chainHash = e.statement?.beacon?.chainHash;
  const numberOf = new Map((e.rounds ?? []).map((r) => [r.roundId, r.number]));
  const players = e.contributions.filter((c) => c.kind === 'PLAYER').length;
  return h(
    'section',
    { class: 'evidence', 'aria-labelledby': 'evidence-title' },
    h('h3', { id: 'evidence-title' }, 'What the order of the cards rests on'),
    h(
      'dl',
      { class: 'facts', 'data-evidence': 'beacon' },
      h('dt', null, 'Randomness beacon'),
      h(
        'dd',
        null,
        chainHash === QUICKNET.chainHash ? 'drand quicknet ' : 'network ',
        mono(short(chainHash)),
        `, round ${e.beacon.round ?? '—'} (signature `,
        mono(short(e.beacon.signature)),
        '): ',
        verdictOf(checks, 'beacon.signature'),
        e.statement?.scheme === 'pyb-shoe/3' &&
          h(
            'span',
            { 'data-evidence': 'beacon-v3' },
            ' — it fixed the burn and the cut card; each coup was drawn from a round of its own, named when its betting closed (listed with the coups below)',
          ),
      ),
      h('dt', null, 'Seeds mixed in'),
      h(
        'dd',
        { 'data-evidence': 'contributions', 'data-players': players },
        `${e.contributions.length} (${players} from players, ${e.contributions.length - players} from the operator): `,
        verdictOf(checks, 'contributions.digest'),
      ),
    ),
    e.contributions.length > 0 &&
      scroll(
        'Seeds mixed in',
        h(
          'table',
          { class: 'contributions' },
          h('caption', null, 'Seeds mixed into the shoe, in order'),
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['#', 'From', 'Seed'].map((c) => h('th', { scope: 'col' }, c)),
            ),
          ),
          h(
            'tbody',
            null,
            e.contributions.map((c) =>
              h(
                'tr',
                { 'data-kind': c.kind },
                h('td', { class: 'num' }, String(c.index)),
                h('td', null, c.kind === 'PLAYER' ? 'a player' : 'the operator'),
                h('td', null, mono(c.seed)),
              ),
            ),
          ),
        ),
      ),
    scroll(
      'Signed heads',
      h(
        'table',
        { class: 'heads', 'data-heads': e.heads.length },
        h('caption', null, `${e.heads.length} signed heads (receipts of the audit chain)`),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['Event', 'Round', 'Key', 'Signed at', 'Check'].map((c) => h('th', { scope: 'col' }, c)),
          ),
        ),
        h(
          'tbody',
          null,
          e.heads.map(({ statement: s }) => {
            const number = s.roundId ? numberOf.get(s.roundId) : undefined;
            const round = s.roundId && `heads.round.${number ?? s.roundId}`;
            const id = !round
              ? 'heads.contributions'
              : s.type === 'BETTING_CLOSED'
                ? `${round}.betting`
                : round;
            return h(
              'tr',
              { 'data-head': s.type },
              h('td', null, `${s.type} (event ${s.seq})`),
              h('td', { class: 'num' }, number === undefined ? '—' : String(number)),
              h('td', null, mono(s.keyId)),
              h('td', null, s.at),
              h('td', null, verdictOf(checks, id)),
            );
          }),
        ),
      ),
    ),
  );
}
