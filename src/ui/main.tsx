import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { recentNamespaces, SettingsProvider, useSettings } from './settings.tsx';
import { TaskQueuePage } from './task-queue-page.tsx';
import { navigate, onLinkClick, usePlace } from './router.ts';
import { ListPage } from './list-page.tsx';
import { WorkflowPage } from './workflow-page.tsx';
import { SimulatorPage } from './simulator-page.tsx';
import { SchedulesPage } from './schedules-page.tsx';
import { SchedulePage } from './schedule-page.tsx';
import { ScheduleFormPage } from './schedule-form.tsx';
import { StartWorkflowPage } from './start-form.tsx';
import { useServerNamespaces } from './namespaces.ts';
import { NotFoundPage } from './not-found.tsx';
import { CodecEndpointButton, CredentialPrompt, SignOut } from './credential-bar.tsx';

/** The current URL with its `ns` parameter set to `namespace` (left out for "default"). */
function withNamespace(namespace: string): string {
  const params = new URLSearchParams(location.search);
  if (namespace === 'default') params.delete('ns');
  else params.set('ns', namespace);
  const q = params.toString();
  return q ? `${location.pathname}?${q}` : location.pathname;
}

function Header() {
  const [s, set] = useSettings();
  const [ns, setNs] = useState(s.namespace);
  useEffect(() => setNs(s.namespace), [s.namespace]);
  const serverNamespaces = useServerNamespaces();
  const switchTo = (value: string) => {
    const namespace = value.trim() || 'default';
    if (namespace === s.namespace) return;
    set({ namespace });
    // A workflow or schedule page belongs to its namespace: switching goes to that namespace's list.
    const list = location.pathname.startsWith('/schedules') ? '/schedules' : location.pathname === '/retry-simulator' ? location.pathname : '/';
    navigate(list === location.pathname ? withNamespace(namespace) : list + withNamespace(namespace).replace(/^[^?]*/, ''), true, false);
  };
  return (
    <header class="top">
      <a class="brand" href="/">steadfast</a>
      <nav>
        <a href="/">Workflows</a>
        <a href="/schedules">Schedules</a>
        <a href="/start-workflow">Start workflow</a>
        <a href="/retry-simulator">Retry simulator</a>
      </nav>
      <span class="grow" />
      <form class="ns" onSubmit={(e) => { e.preventDefault(); switchTo(ns); }}>
        <label>namespace <input name="namespace" list="namespaces" value={ns} size={12} onInput={(e) => setNs(e.currentTarget.value)} onBlur={() => switchTo(ns)} /></label>
        <datalist id="namespaces" data-testid="namespace-options">
          {[...new Set([...serverNamespaces, ...recentNamespaces()])].map((n) => <option key={n} value={n} />)}
        </datalist>
      </form>
      <CodecEndpointButton />
      <SignOut />
      <button type="button" class="toggle" title="show times in UTC or local time" onClick={() => set({ zone: s.zone === 'utc' ? 'local' : 'utc' })}>
        {s.zone === 'utc' ? 'UTC' : 'Local time'}
      </button>
      <button type="button" class="toggle" title="light or dark" onClick={() => set({ theme: s.theme === 'dark' ? 'light' : 'dark' })}>
        {s.theme === 'dark' ? 'Dark' : 'Light'}
      </button>
    </header>
  );
}

function Routes() {
  const place = usePlace();
  const [settings, set] = useSettings();
  const linked = place.params.get('ns');
  useEffect(() => {
    if (linked && linked !== settings.namespace) set({ namespace: linked });
    else if (!linked && settings.namespace !== 'default') navigate(withNamespace(settings.namespace), true);
  }, [linked]);
  if (place.path === '/start-workflow') return <StartWorkflowPage />;
  const m = /^\/workflows\/([^/]+)(?:\/([^/]+))?\/?$/.exec(place.path);
  if (m) return <WorkflowPage workflowId={decodeURIComponent(m[1]!)} runId={m[2] ? decodeURIComponent(m[2]) : undefined} />;
  if (place.path === '/retry-simulator') return <SimulatorPage />;
  const tq = /^\/task-queues\/([^/]+)\/?$/.exec(place.path);
  if (tq) return <TaskQueuePage name={decodeURIComponent(tq[1]!)} />;
  if (place.path === '/schedules' || place.path === '/schedules/') return <SchedulesPage />;
  if (place.path === '/schedules/new') return <ScheduleFormPage />;
  const s = /^\/schedules\/([^/]+)(\/edit)?\/?$/.exec(place.path);
  if (s) {
    const id = decodeURIComponent(s[1]!);
    return s[2] ? <ScheduleFormPage key={`edit-${id}`} scheduleId={id} /> : <SchedulePage scheduleId={id} />;
  }
  if (place.path === '/' || place.path === '/workflows' || place.path === '/workflows/') return <ListPage place={place} />;
  return <NotFoundPage path={place.path} />;
}

function App() {
  return (
    <SettingsProvider>
      <div onClick={onLinkClick}>
        <Header />
        <CredentialPrompt />
        <main><Routes /></main>
      </div>
    </SettingsProvider>
  );
}

render(<App />, document.getElementById('app')!);
