const noop = () => undefined;

/**
 * The cancellation of one local activity call, for the calls that are never cancelled and never
 * wait: plain fields and a listener list, where an AbortController builds an event target and
 * its signal. An AbortSignal is made only when a wait needs one (a retry's backoff).
 */
export class CallCancel {
  aborted = false;
  reason: unknown;
  #controller: AbortController | undefined;
  #listeners: (() => void)[] | undefined;

  /** Cancels the call (the first reason counts): the signal aborts, then each listener runs once, in the order they came. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.#controller?.abort(reason);
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners) for (const f of listeners) f();
  }

  /** Runs `f` once when the call is cancelled, at once if it is; returns what unregisters it. */
  onAbort(f: () => void): () => void {
    if (this.aborted) {
      f();
      return noop;
    }
    (this.#listeners ??= []).push(f);
    return () => {
      const at = this.#listeners?.indexOf(f) ?? -1;
      if (at >= 0) this.#listeners!.splice(at, 1);
    };
  }

  /** A signal that aborts, with the same reason, when the call is cancelled (made on first use). */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }
}
