/**
 * Resolves after `turns` turns of the event loop's immediates. Work queued on an immediate in the
 * current turn (a service call's send, a group commit) has run by the end of the first; I/O read
 * in between (a request, a socket's close) has been handled before the second.
 */
export async function afterImmediates(turns = 1): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
