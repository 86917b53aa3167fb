/** A listener as `addEventListener` takes it (the DOM's EventListenerOrEventListenerObject). */
type Listener = ((event: Event) => unknown) | { handleEvent(event: Event): unknown };
type EventListener = (event: Event) => void;
type ListenerOptions = Parameters<AbortSignal['addEventListener']>[2];

/**
 * Makes the listeners an activity adds to its cancellation signal (`addEventListener`, `onabort`)
 * run inside the activity's context (`enter`), whoever aborts the signal: the start-to-close
 * timer, a cancel the heartbeat brought, or shutdown. A listener's throw, or the rejection of an
 * async listener, is the activity's own mistake: it goes to `onError` instead of becoming an
 * uncaught exception, which Node's EventTarget would make of it and which would end the worker's
 * process.
 */
export function guardSignalListeners(signal: AbortSignal, enter: <T>(fn: () => T) => T, onError: (err: unknown) => void): void {
  const wrappers = new WeakMap<object, EventListener>();
  const wrap = (listener: Listener): EventListener => {
    let wrapper = wrappers.get(listener);
    if (!wrapper) {
      wrapper = function guarded(this: unknown, event: Event): void {
        try {
          const out = enter(() => (typeof listener === 'function' ? listener.call(this, event) : listener.handleEvent(event))) as unknown;
          if (typeof (out as Promise<unknown> | undefined)?.then === 'function') (out as Promise<unknown>).then(undefined, onError);
        } catch (err) {
          onError(err);
        }
      };
      wrappers.set(listener, wrapper);
    }
    return wrapper;
  };
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  const proto = Object.getPrototypeOf(signal) as AbortSignal;
  const onabort = Object.getOwnPropertyDescriptor(proto, 'onabort') ?? Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'onabort');
  let handler: ((this: AbortSignal, ev: Event) => unknown) | null = null;
  Object.defineProperties(signal, {
    addEventListener: {
      configurable: true, writable: true,
      value: (type: string, listener: Listener | null, options?: ListenerOptions) => (listener ? add(type as 'abort', wrap(listener), options) : undefined),
    },
    removeEventListener: {
      configurable: true, writable: true,
      value: (type: string, listener: Listener | null, options?: ListenerOptions) =>
        (listener ? remove(type as 'abort', (wrappers.get(listener) ?? listener) as EventListener, options) : undefined),
    },
    onabort: {
      configurable: true,
      get: () => handler,
      set: (fn: ((this: AbortSignal, ev: Event) => unknown) | null) => {
        handler = typeof fn === 'function' ? fn : null;
        onabort?.set?.call(signal, handler && wrap(handler as EventListener));
      },
    },
  });
}
