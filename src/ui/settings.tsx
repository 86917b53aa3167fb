import { createContext } from 'preact';
import { useContext, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';

/** Display settings, kept in localStorage. */
interface Settings {
  theme: 'light' | 'dark';
  /** Times shown in UTC or in the browser's zone. */
  zone: 'utc' | 'local';
  namespace: string;
}

const KEY = 'steadfast.';

function load(): Settings {
  return {
    theme: document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light',
    zone: localStorage.getItem(`${KEY}zone`) === 'local' ? 'local' : 'utc',
    // A shared link names its namespace (`?ns=`); it wins over the one last used here.
    namespace: new URLSearchParams(location.search).get('ns') || localStorage.getItem(`${KEY}namespace`) || 'default',
  };
}

/** Namespaces used in this browser, most recent first (at most 10), for the switcher's suggestions. */
export function recentNamespaces(): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(`${KEY}namespaces`) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function remember(namespace: string): void {
  localStorage.setItem(`${KEY}namespaces`, JSON.stringify([namespace, ...recentNamespaces().filter((n) => n !== namespace)].slice(0, 10)));
}

const SettingsContext = createContext<[Settings, (s: Partial<Settings>) => void]>([
  { theme: 'light', zone: 'utc', namespace: 'default' }, () => undefined,
]);

/** Holds the settings for the whole app and saves every change. */
export function SettingsProvider({ children }: { children: ComponentChildren }) {
  const [settings, setSettings] = useState(() => {
    const first = load();
    localStorage.setItem(`${KEY}namespace`, first.namespace);
    remember(first.namespace);
    return first;
  });
  const update = (patch: Partial<Settings>) => {
    const next = { ...settings, ...patch };
    localStorage.setItem(`${KEY}theme`, next.theme);
    localStorage.setItem(`${KEY}zone`, next.zone);
    localStorage.setItem(`${KEY}namespace`, next.namespace);
    remember(next.namespace);
    document.documentElement.dataset.theme = next.theme;
    setSettings(next);
  };
  return <SettingsContext.Provider value={[settings, update]}>{children}</SettingsContext.Provider>;
}

/** The settings and a function that changes some of them. */
export function useSettings(): [Settings, (s: Partial<Settings>) => void] {
  return useContext(SettingsContext);
}
