// The API key lives in this tab's sessionStorage only: not in localStorage (it would outlive
// the tab and reach every other tab), never in a cookie (the service reads only `KEY`).
const KEY_ITEM = 'workplan.key';

/** The key the operator gave in this tab, if any. */
export function keptKey(): string | undefined {
  return sessionStorage.getItem(KEY_ITEM) ?? undefined;
}

export function keepKey(key: string): void {
  sessionStorage.setItem(KEY_ITEM, key);
}

/** "Sair": the tab forgets the key. */
export function forgetKey(): void {
  sessionStorage.removeItem(KEY_ITEM);
}
