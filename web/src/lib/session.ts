/**
 * API keys live in sessionStorage only: gone when the tab closes, never in localStorage, a cookie or
 * a URL. One slot per page (the table's operator key and the viewer's regulator key are different).
 */
export interface KeySlot {
  read(): string | undefined;
  write(key: string): void;
  clear(): void;
}

export function keySlot(name: 'table' | 'regulator'): KeySlot {
  const id = `pyb.${name}.apiKey`;
  return {
    read: () => sessionStorage.getItem(id) ?? undefined,
    write: (key) => sessionStorage.setItem(id, key),
    clear: () => sessionStorage.removeItem(id),
  };
}

/** A non-secret value remembered for the tab (the table id, the demo players). */
export const remember = {
  read: (name: string): string | undefined => sessionStorage.getItem(`pyb.${name}`) ?? undefined,
  write: (name: string, value: string): void => sessionStorage.setItem(`pyb.${name}`, value),
};

/** Where the regulator viewer leaves an exported bundle for the verifier page (same tab). */
export const HANDOFF_KEY = 'pyb.verify.bundle';
