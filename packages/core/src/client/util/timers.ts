/** Lets the process exit while `timer` is pending (Node); browsers and edge have nothing to unref. */
export function unrefTimer(timer: unknown): void {
  const t = timer as { unref?: () => void } | undefined;
  if (typeof t?.unref === 'function') t.unref();
}
