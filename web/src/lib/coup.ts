/**
 * A coup on the page: the two hands and the step log (each card with the rule that called for it, and
 * the stand decisions), dealt card by card, or all at once under reduced motion.
 */
import { parseCard, pointValue } from '@pyb/engine';
import { cardFace } from './cards';
import { h } from './dom';

export interface StepLike {
  action: 'DEAL' | 'DRAW' | 'STAND';
  to: 'PLAYER' | 'BANKER';
  /** Card notation; null for a stand decision. */
  card: string | null;
  rule: string;
  note: string;
  /** Position of the card in the shoe order, when known. */
  position?: number | null;
}

export interface CoupLike {
  player: { cards: readonly string[]; total: number };
  banker: { cards: readonly string[]; total: number };
  winner: 'PLAYER' | 'BANKER' | 'TIE';
  natural: boolean;
  playerPair: boolean;
  bankerPair: boolean;
  steps: readonly StepLike[];
}

const SIDE = { PLAYER: 'Punto', BANKER: 'Banca' } as const;
export const WINNER_WORDS = { PLAYER: 'Punto wins', BANKER: 'Banca wins', TIE: 'Empate' } as const;

export function outcomeText(coup: CoupLike): string {
  const marks = [
    coup.natural && 'natural',
    coup.playerPair && 'Punto pair',
    coup.bankerPair && 'Banca pair',
  ].filter(Boolean);
  return `${WINNER_WORDS[coup.winner]} ${coup.player.total}–${coup.banker.total}${marks.length ? ` (${marks.join(', ')})` : ''}`;
}

function stepItem(step: StepLike): HTMLElement {
  const verb = step.action === 'STAND' ? 'stands' : step.action === 'DRAW' ? 'draws' : 'is dealt';
  return h(
    'li',
    { 'data-action': step.action, 'data-rule': step.rule },
    h('span', { class: 'step-what' }, `${SIDE[step.to]} ${verb}`),
    step.card && cardFace(step.card, { small: true }),
    step.position !== undefined &&
      step.position !== null &&
      h('span', { class: 'step-position' }, `card ${step.position}`),
    h('span', { class: 'step-note' }, step.note),
    h('code', { class: 'step-rule' }, step.rule),
  );
}

interface CoupView {
  root: HTMLElement;
  hands: Record<'PLAYER' | 'BANKER', { cards: HTMLElement; total: HTMLElement }>;
  steps: HTMLOListElement;
  outcome: HTMLElement;
}

function frame(caption: string): CoupView {
  const hand = (side: 'PLAYER' | 'BANKER') => {
    const cards = h('div', { class: 'hand-cards' });
    const total = h('span', { class: 'hand-total' });
    return {
      node: h(
        'section',
        { class: `hand hand-${side.toLowerCase()}`, 'aria-label': SIDE[side], 'data-side': side },
        h('h4', null, SIDE[side], ' ', total),
        cards,
      ),
      cards,
      total,
    };
  };
  const player = hand('PLAYER');
  const banker = hand('BANKER');
  const steps = h('ol', { class: 'steps', 'aria-label': 'How the coup was dealt' });
  const outcome = h('p', { class: 'outcome', role: 'status' });
  const root = h(
    'div',
    { class: 'coup' },
    h('h3', null, caption),
    h('div', { class: 'hands' }, player.node, banker.node),
    outcome,
    h(
      'details',
      { class: 'steps-box', open: true },
      h('summary', null, 'Step by step (which rule drew each card)'),
      steps,
    ),
  );
  return {
    root,
    hands: {
      PLAYER: { cards: player.cards, total: player.total },
      BANKER: { cards: banker.cards, total: banker.total },
    },
    steps,
    outcome,
  };
}

const points = (card: string): number => pointValue(parseCard(card));

/** A coup shown at once (replay, verifier). */
export function renderCoup(coup: CoupLike, caption = 'The coup'): HTMLElement {
  const view = frame(caption);
  for (const side of ['PLAYER', 'BANKER'] as const) {
    const hand = side === 'PLAYER' ? coup.player : coup.banker;
    view.hands[side].cards.replaceChildren(...hand.cards.map((c) => cardFace(c)));
    view.hands[side].total.textContent = `(${hand.total})`;
  }
  view.steps.replaceChildren(...coup.steps.map(stepItem));
  view.outcome.textContent = outcomeText(coup);
  view.root.dataset.dealt = 'done';
  return view.root;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Deals the coup into `container` card by card from its step log; resolves when the outcome is shown.
 * Totals are the running hand totals (points mod 10), as the table shows them while dealing.
 */
export async function dealCoup(
  container: HTMLElement,
  coup: CoupLike,
  caption: string,
  stepMs = 450,
): Promise<void> {
  const view = frame(caption);
  view.root.dataset.dealt = 'dealing';
  container.replaceChildren(view.root);
  const reduced = matchMedia('(prefers-reduced-motion: reduce)').matches;
  const totals = { PLAYER: 0, BANKER: 0 };
  for (const step of coup.steps) {
    if (step.card) {
      totals[step.to] = (totals[step.to] + points(step.card)) % 10;
      view.hands[step.to].cards.append(cardFace(step.card, { fresh: !reduced }));
      view.hands[step.to].total.textContent = `(${totals[step.to]})`;
    }
    view.steps.append(stepItem(step));
    if (!reduced) await sleep(stepMs);
  }
  view.hands.PLAYER.total.textContent = `(${coup.player.total})`;
  view.hands.BANKER.total.textContent = `(${coup.banker.total})`;
  view.outcome.textContent = outcomeText(coup);
  view.root.dataset.dealt = 'done';
}
