import assert from 'node:assert/strict';

/** Polls (real time, briefly) until `fn` is true; fails naming `what` after `ms`. */
export async function waitUntil(what: string, fn: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
