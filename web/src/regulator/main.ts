/**
 * The regulator viewer (read-only key): a round's replay, a player's game recall paged back, and a
 * closed shoe's audit export downloaded as the bundle `baccarat verify` takes (or handed to the
 * verifier page in this tab).
 */
import '../styles.css';
import { get, seg } from '../lib/api';
import { byId, fill, h } from '../lib/dom';
import { HANDOFF_KEY, keySlot } from '../lib/session';
import type { PlayerRecall, RoundReplay, ShoeBundleView } from '../lib/types';
import { busy, showError } from '../lib/ui';
import { renderReplay, replaySummary } from './replay-view';

const slot = keySlot('regulator');
const message = byId('message');
let key: string | undefined;

function signedIn(value: string): void {
  key = value;
  byId('signin-box').hidden = true;
  byId('signed-in').hidden = false;
  byId('tools').hidden = false;
  byId('whoami').textContent = `Signed in with key …${value.slice(-4)} (read-only).`;
}

byId<HTMLFormElement>('signin').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = byId<HTMLInputElement>('api-key');
  const value = input.value.trim();
  if (!value) return;
  input.value = '';
  slot.write(value);
  signedIn(value);
  byId<HTMLInputElement>('round-id').focus();
});

byId('signout').addEventListener('click', () => {
  slot.clear();
  key = undefined;
  byId('signin-box').hidden = false;
  byId('signed-in').hidden = true;
  byId('tools').hidden = true;
  for (const id of ['replay', 'recall', 'export']) byId(id).replaceChildren();
  byId<HTMLInputElement>('api-key').focus();
});

const submitter = (event: SubmitEvent) => (event.submitter as HTMLButtonElement | null) ?? undefined;

// ---- replay -------------------------------------------------------------------------------------

byId<HTMLFormElement>('replay-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const roundId = byId<HTMLInputElement>('round-id').value.trim();
  void busy(submitter(event), message, async () => {
    showError(message, undefined);
    const replay = await get<RoundReplay>(`/v1/rounds/${seg(roundId)}/replay`, { key });
    fill(byId('replay'), renderReplay(replay));
  });
});

// ---- game recall --------------------------------------------------------------------------------

interface RecallState {
  playerId: string;
  operatorId?: string;
  limit: number;
  /** Pages fetched so far, oldest first (each page is in play order). */
  rounds: RoundReplay[];
  nextCursor: string | null;
  pages: number;
}
let recall: RecallState | undefined;

async function fetchRecallPage(state: RecallState, cursor?: string): Promise<void> {
  const page = await get<PlayerRecall>(`/v1/players/${seg(state.playerId)}/rounds`, {
    key,
    query: { limit: state.limit, cursor, operatorId: state.operatorId },
  });
  // An older page goes before what is shown: the list stays in play order.
  state.rounds = [...page.rounds, ...state.rounds];
  state.nextCursor = page.nextCursor;
  state.pages++;
}

function renderRecall(state: RecallState): void {
  const older = h('button', { type: 'button', id: 'recall-older' }, 'Older rounds');
  older.addEventListener(
    'click',
    () =>
      void busy(older, message, async () => {
        if (state.nextCursor) await fetchRecallPage(state, state.nextCursor);
        renderRecall(state);
        byId<HTMLButtonElement>('recall-older')?.focus();
      }),
  );
  fill(
    byId('recall'),
    h(
      'p',
      { role: 'status' },
      `${state.playerId}: ${state.rounds.length} round${state.rounds.length === 1 ? '' : 's'} in ${state.pages} page${state.pages === 1 ? '' : 's'}, oldest first.`,
      state.nextCursor ? '' : ' That is the whole history.',
    ),
    state.nextCursor && h('p', { class: 'actions' }, older),
    h(
      'ol',
      { class: 'recall-list', 'data-rounds': state.rounds.length },
      state.rounds.map((replay) => {
        const details = h(
          'details',
          { 'data-round': replay.roundId },
          h('summary', null, replaySummary(replay)),
        );
        // Rendered when opened: a page holds up to 50 full replays.
        details.addEventListener('toggle', () => {
          if (details.open && details.children.length === 1) details.append(renderReplay(replay));
        });
        return h('li', null, details);
      }),
    ),
  );
}

byId<HTMLFormElement>('recall-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const playerId = byId<HTMLInputElement>('player-id').value.trim();
  const operatorId = byId<HTMLInputElement>('operator-id').value.trim() || undefined;
  const limit = Math.min(50, Math.max(1, Number(byId<HTMLInputElement>('page-size').value) || 10));
  void busy(submitter(event), message, async () => {
    showError(message, undefined);
    const state: RecallState = { playerId, operatorId, limit, rounds: [], nextCursor: null, pages: 0 };
    await fetchRecallPage(state);
    recall = state;
    renderRecall(recall);
  });
});

// ---- audit export -------------------------------------------------------------------------------

/** Saves `text` as a file (a link to a blob URL: no inline script, nothing leaves the tab). */
function download(name: string, text: string): HTMLAnchorElement {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = h('a', { href: url, download: name, id: 'bundle-link' }, `Download ${name} again`);
  link.addEventListener('click', () => setTimeout(() => URL.revokeObjectURL(url), 60_000));
  return link;
}

byId<HTMLFormElement>('export-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const shoeId = byId<HTMLInputElement>('export-shoe-id').value.trim();
  void busy(submitter(event), message, async () => {
    showError(message, undefined);
    const bundle = await get<ShoeBundleView>(`/v1/shoes/${seg(shoeId)}/audit`, { key });
    const text = `${JSON.stringify(bundle, null, 2)}\n`;
    const name = `${bundle.statement.shoeId}.bundle.json`;
    const link = download(name, text);
    const verify = h('a', { href: '/verify?from=session', id: 'verify-here' }, 'Verify it in this browser');
    verify.addEventListener('click', () => sessionStorage.setItem(HANDOFF_KEY, text));
    fill(
      byId('export'),
      h(
        'p',
        { role: 'status' },
        `Shoe ${bundle.statement.shoeId}: ${bundle.rounds.length} rounds, ${bundle.audit.events.length} audit events (${bundle.format}). `,
        link,
        ' · ',
        verify,
        ' · or offline: ',
        h('code', null, `baccarat verify ${name} --public-key operator.pem`),
      ),
    );
    link.click();
  });
});

// ---- start --------------------------------------------------------------------------------------

const saved = slot.read();
if (saved) signedIn(saved);
const params = new URLSearchParams(location.search);
const round = params.get('round');
if (round) byId<HTMLInputElement>('round-id').value = round;
