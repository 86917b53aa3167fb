import { useEffect, useState } from 'preact/hooks';
import { getCredential, onUnauthenticated, setCredential } from './credential.ts';
import { getCodecEndpoint, setCodecEndpoint } from './codec.ts';

/**
 * Asks for an API key or JWT when the server refuses a call with 401. The page reloads after,
 * so that every view asks again with the new credential.
 */
export function CredentialPrompt() {
  const [refused, setRefused] = useState<string | undefined>();
  const [value, setValue] = useState('');
  const [remember, setRemember] = useState(false);
  useEffect(() => onUnauthenticated(setRefused), []);
  if (!refused) return null;
  return (
    <form class="credential panel" data-testid="credential" onSubmit={(e) => { e.preventDefault(); setCredential(value.trim(), remember); location.reload(); }}>
      <span>{getCredential() !== undefined ? 'The server refused the credential: ' : 'This server wants a credential: '}<span class="note">{refused}</span></span>
      <input type="password" name="credential" required autocomplete="off" placeholder="API key or JWT" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
      <label><input type="checkbox" name="remember" checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} /> remember in this browser</label>
      <button type="submit">Use</button>
    </form>
  );
}

/** Sets the codec endpoint (a `steadfast codec-server`) the UI decodes payloads through, or clears it, in a dialog. */
export function CodecEndpointButton() {
  const endpoint = getCodecEndpoint();
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState(endpoint ?? '');
  const [error, setError] = useState('');
  const save = (next: string | undefined) => {
    if (next !== undefined) {
      try {
        const url = new URL(next);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
      } catch {
        setError('endpoint must be an http:// or https:// address, e.g. http://127.0.0.1:8089');
        return;
      }
    }
    setCodecEndpoint(next);
    location.reload();
  };
  return (
    <>
      <button type="button" class="toggle" data-testid="codec-endpoint" title={endpoint ? `payloads are decoded by ${endpoint}` : 'set a codec endpoint to show encoded payloads decoded'}
        onClick={() => { setValue(endpoint ?? ''); setError(''); setOpen(true); }}>
        {endpoint ? 'Codec: on' : 'Codec: off'}
      </button>
      {open && (
        <div class="dialog-backdrop" role="dialog" aria-modal="true" aria-label="Codec endpoint">
          <form class="dialog panel" data-testid="codec-dialog"
            onSubmit={(e) => { e.preventDefault(); save(value.trim() || undefined); }}>
            <h3>Codec endpoint</h3>
            <p class="note">A <code>steadfast codec-server</code> the UI sends encoded payloads to for decoding. Empty stops decoding.</p>
            <input name="codec-endpoint" type="text" placeholder="http://127.0.0.1:8089" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
            {error && <p class="error" data-testid="codec-error">{error}</p>}
            <div class="buttons">
              <button type="submit">Save</button>
              {endpoint && <button type="button" onClick={() => save(undefined)}>Stop decoding</button>}
              <button type="button" onClick={() => setOpen(false)}>Cancel</button>
            </div>
          </form>
        </div>
      )}
    </>
  );
}

/** "Sign out" while a credential is held: forgets it and reloads. */
export function SignOut() {
  if (getCredential() === undefined) return null;
  return <button type="button" class="toggle" title="forget the credential this browser sends" onClick={() => { setCredential(undefined); location.reload(); }}>Sign out</button>;
}
