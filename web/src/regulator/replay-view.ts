/**
 * A round replay (GET /v1/rounds/{roundId}/replay, and each round of a game recall) as a regulator
 * reads it: the verification block first, then the shoe, every step of the coup with the shoe
 * position of its card, every position with the balance before and after and the ledger movements,
 * and the round's audit events.
 */
import { cardFace } from '../lib/cards';
import { outcomeText, renderCoup } from '../lib/coup';
import { type Child, h } from '../lib/dom';
import { formatMoney } from '../lib/money';
import { betName } from '../lib/problems';
import type { RoundReplay } from '../lib/types';
import { facts, instant, mono } from '../lib/ui';

type Verification = RoundReplay['verification'];
type CheckName = Exclude<keyof Verification, 'status' | 'pendingReveal'>;

const CHECKS: ReadonlyArray<readonly [CheckName, string]> = [
  ['statementSignature', 'Statement signature'],
  ['commitment', 'Commitment'],
  ['cards', 'Cards'],
  ['tableau', 'Tableau'],
  ['auditChain', 'Audit chain'],
  ['bets', 'Bets'],
  ['settlement', 'Settlement'],
  ['chainHead', 'Chain head'],
];

const STATUS_WORDS: Record<string, string> = {
  PASSED: 'passed',
  FAILED: 'FAILED',
  PENDING_REVEAL: 'pending the reveal',
  NOT_APPLICABLE: 'not applicable',
  VERIFIED: 'verified',
};

const tableWrap = (label: string, table: HTMLTableElement) =>
  h('div', { class: 'table-scroll', tabindex: 0, role: 'group', 'aria-label': label }, table);

function dataTable(caption: string, head: readonly string[], rows: readonly Child[][]): HTMLElement {
  return tableWrap(
    caption,
    h(
      'table',
      null,
      h('caption', null, caption),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          head.map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      h(
        'tbody',
        null,
        rows.map((cells) =>
          h(
            'tr',
            null,
            cells.map((c, i) => (i === 0 ? h('th', { scope: 'row' }, c) : h('td', null, c))),
          ),
        ),
      ),
    ),
  );
}

function verification(v: Verification): HTMLElement {
  return h(
    'section',
    { class: 'verification', 'data-status': v.status },
    h(
      'h4',
      null,
      'Verification: ',
      h('span', { class: `status status-${v.status.toLowerCase()}` }, STATUS_WORDS[v.status] ?? v.status),
    ),
    v.pendingReveal.length > 0 &&
      h(
        'p',
        { class: 'hint' },
        `Waiting for the shoe to close (seed reveal): ${v.pendingReveal.join(', ')}.`,
      ),
    h(
      'ul',
      { class: 'checks' },
      CHECKS.map(([name, label]) => {
        const check = v[name];
        return h(
          'li',
          { 'data-check': name, 'data-status': check.status },
          h(
            'span',
            { class: `status status-${check.status.toLowerCase()}` },
            STATUS_WORDS[check.status] ?? check.status,
          ),
          ' ',
          h('strong', null, label),
          ': ',
          check.detail,
          check.problems.length > 0 &&
            h(
              'ul',
              { class: 'problems' },
              check.problems.map((p) =>
                h(
                  'li',
                  null,
                  h('code', null, p.code),
                  ' ',
                  p.detail,
                  p.seq !== null ? ` (event ${p.seq})` : '',
                  p.playerId ? ` (player ${p.playerId})` : '',
                ),
              ),
            ),
        );
      }),
    ),
  );
}

function shoeBlock(replay: RoundReplay): HTMLElement {
  const { shoe } = replay;
  return h(
    'details',
    { class: 'shoe-block' },
    h('summary', null, `Shoe ${shoe.number} (${shoe.phase.toLowerCase()})`),
    facts([
      ['Shoe', mono(shoe.shoeId)],
      ['Table', mono(shoe.tableId)],
      [
        'Rules',
        `${shoe.statement.rulesVersion}, ${shoe.statement.decks} decks, scheme ${shoe.statement.scheme}`,
      ],
      ['Commitment', mono(shoe.commitment)],
      [
        'Signed by',
        shoe.publicKey ? mono(shoe.publicKey.keyId) : `${shoe.keyId} (key not known to the key service)`,
      ],
      ['Client seed', shoe.clientSeed ? mono(shoe.clientSeed) : '—'],
      ['Server seed', shoe.serverSeed ? mono(shoe.serverSeed) : 'sealed until the shoe is closed'],
      ['Cut card', shoe.cutIndex === null ? 'revealed at close' : `before card ${shoe.cutIndex}`],
      [
        'Burn',
        shoe.burn
          ? `${shoe.burn.shown} shown, ${shoe.burn.burned} burned (cards ${shoe.burn.positions.from}–${shoe.burn.positions.to})`
          : '—',
      ],
      [
        'Closed',
        shoe.close
          ? `${shoe.close.statement.closedAt}, head ${shoe.close.statement.head.slice(0, 16)}… over ${shoe.close.statement.length} events`
          : 'not yet',
      ],
    ]),
  );
}

function coupBlock(replay: RoundReplay): HTMLElement {
  const coup = replay.coup;
  if (!coup)
    return h(
      'p',
      null,
      replay.voidReason ? `Voided (${replay.voidReason}): no cards were dealt.` : 'Not dealt yet.',
    );
  const steps = dataTable(
    'Every step of the coup',
    ['#', 'Action', 'Hand', 'Card', 'Shoe position', 'Rule', 'Note', 'Punto', 'Banca'],
    coup.steps.map((s) => [
      String(s.step),
      s.action,
      s.to === 'PLAYER' ? 'Punto' : 'Banca',
      s.card ? cardFace(s.card, { small: true }) : '—',
      s.position === null ? '—' : String(s.position),
      h('code', null, s.rule),
      s.note,
      String(s.playerTotal),
      String(s.bankerTotal),
    ]),
  );
  return h(
    'div',
    { class: 'coup-block' },
    renderCoup(
      { ...coup, steps: coup.steps.map((s) => ({ ...s })) },
      `Coup ${coup.index + 1}: cards ${coup.start}–${coup.start + coup.cardsUsed - 1} of the shoe${coup.cutCardOut ? ', brought out the cut card' : ''}${coup.last ? ', the last coup of the shoe' : ''}`,
    ),
    steps,
  );
}

function positionsBlock(replay: RoundReplay): HTMLElement {
  const rows = replay.positions.map((p) => {
    const currency = p.balance.currency ?? replay.shoe.statement.table.currency;
    const m = (minor: number | null) => (minor === null ? '—' : formatMoney(minor, currency));
    return [
      p.playerId,
      h(
        'ul',
        { class: 'plain' },
        p.bets.map((b) =>
          h(
            'li',
            null,
            `${betName(b.type)} ${m(b.stake)}: ${b.result?.toLowerCase() ?? 'open'}${b.payout ? `, paid ${m(b.payout)}` : ''}${b.commission ? `, commission ${m(b.commission)}` : ''}${b.commissionOwed ? `, owed ${m(b.commissionOwed)}` : ''}`,
          ),
        ),
      ),
      m(p.stake),
      m(p.payout),
      m(p.commission),
      h('span', { 'data-balance-before': p.balance.before ?? '' }, m(p.balance.before)),
      h('span', { 'data-balance-after': p.balance.after ?? '' }, m(p.balance.after)),
      h(
        'ul',
        { class: 'plain' },
        p.movements.map((mv) =>
          h(
            'li',
            null,
            `#${mv.seq} ${mv.kind.toLowerCase()} ${m(mv.amount)} (${m(mv.balanceBefore)} → ${m(mv.balanceAfter)})`,
          ),
        ),
      ),
    ];
  });
  return dataTable(
    'Every position',
    ['Player', 'Bets', 'Stake', 'Paid', 'Commission', 'Balance before', 'Balance after', 'Ledger'],
    rows.length > 0 ? rows : [['no bets', '', '', '', '', '', '', '']],
  );
}

function eventsBlock(replay: RoundReplay): HTMLElement {
  return h(
    'details',
    null,
    h('summary', null, `Audit events of the round (${replay.events.length})`),
    dataTable(
      'Audit events',
      ['Seq', 'Type', 'At', 'Hash', 'Previous'],
      replay.events.map((e) => [
        String(e.seq),
        e.type,
        instant(e.at),
        mono(`${e.hash.slice(0, 16)}…`),
        mono(`${e.prevHash.slice(0, 16)}…`),
      ]),
    ),
  );
}

/** One-line summary of a replayed round (the recall list). */
export function replaySummary(replay: RoundReplay): string {
  const outcome = replay.coup
    ? outcomeText({ ...replay.coup, steps: [] })
    : replay.voidReason
      ? `voided (${replay.voidReason})`
      : replay.status.toLowerCase();
  return `Round ${replay.number} of shoe ${replay.shoe.number} — ${outcome} — ${replay.verification.status.toLowerCase()}`;
}

export function renderReplay(replay: RoundReplay): HTMLElement {
  return h(
    'article',
    { class: 'replay', 'data-round': replay.roundId, 'data-status': replay.verification.status },
    h('h3', null, `Round ${replay.number} of shoe ${replay.shoe.number} `, h('code', null, replay.roundId)),
    facts([
      ['State', replay.status.toLowerCase()],
      ['Opened', instant(replay.openedAt)],
      ['No va más', instant(replay.closedAt)],
      ['Dealt', instant(replay.dealtAt)],
      ['Settled', instant(replay.settledAt ?? replay.voidedAt)],
    ]),
    verification(replay.verification),
    shoeBlock(replay),
    coupBlock(replay),
    positionsBlock(replay),
    replay.totals &&
      h(
        'p',
        null,
        `Totals: ${replay.totals.positions} positions, stake ${formatMoney(replay.totals.stake, replay.shoe.statement.table.currency)}, paid ${formatMoney(replay.totals.payout, replay.shoe.statement.table.currency)}, commission ${formatMoney(replay.totals.commission, replay.shoe.statement.table.currency)}.`,
      ),
    eventsBlock(replay),
  );
}
