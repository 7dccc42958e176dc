/** Page plumbing shared by the three pages: messages, busy buttons, definition lists. */

import { type Child, h } from './dom';
import { describeError, type ProblemContext } from './problems';

/** Shows an error in the page's alert region (or clears it). */
export function showError(
  region: HTMLElement,
  error: unknown,
  context?: ProblemContext,
  prefix?: string,
): void {
  if (error === undefined) {
    region.replaceChildren();
    return;
  }
  const text = describeError(error, context);
  region.replaceChildren(h('p', null, prefix ? `${prefix}: ${text}` : text));
}

/** Says something to screen readers (a polite live region) without moving focus. */
export function announce(region: HTMLElement, text: string): void {
  region.textContent = text;
}

/**
 * Runs an action from a button: the button is disabled and aria-busy meanwhile, an error goes to the
 * alert region, and the button keeps the focus it had.
 */
export async function busy(
  button: HTMLButtonElement | undefined,
  region: HTMLElement,
  action: () => Promise<void>,
  context?: () => ProblemContext,
  prefix?: string,
): Promise<boolean> {
  if (button) {
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
  }
  try {
    await action();
    return true;
  } catch (error) {
    showError(region, error, context?.(), prefix);
    return false;
  } finally {
    if (button) {
      button.disabled = false;
      button.removeAttribute('aria-busy');
    }
  }
}

/** A <dl> of label/value pairs (values may be nodes). */
export function facts(rows: ReadonlyArray<readonly [string, Child]>, cls = 'facts'): HTMLDListElement {
  return h(
    'dl',
    { class: cls },
    rows.map(([label, value]) => [h('dt', null, label), h('dd', null, value)]),
  );
}

/** A long hex or id, wrapped and copyable. */
export const mono = (text: string): HTMLElement => h('code', { class: 'mono' }, text);

/**
 * An instant as the API gives it (ISO 8601, UTC) and in the reader's own time zone beside it, in a
 * `<time>` element (a regulator reads UTC; the person at the screen also wants his local time).
 */
export function instant(iso: string | null | undefined): Child {
  if (!iso) return '—';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  // (dateStyle and timeStyle may not be combined with timeZoneName: the fields one by one.)
  const local = new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
  }).format(at);
  return h('time', { datetime: iso }, iso, ' ', h('span', { class: 'local-time' }, `(${local})`));
}
