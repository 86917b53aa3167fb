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

/** Sets the codec endpoint (a `steadfast codec-server`) the UI decodes payloads through, or clears it. */
export function CodecEndpointButton() {
  const endpoint = getCodecEndpoint();
  const change = () => {
    const next = prompt('Codec endpoint (e.g. http://127.0.0.1:8089); empty to stop decoding', endpoint ?? '');
    if (next === null) return;
    setCodecEndpoint(next.trim() || undefined);
    location.reload();
  };
  return (
    <button type="button" class="toggle" data-testid="codec-endpoint" title={endpoint ? `payloads are decoded by ${endpoint}` : 'set a codec endpoint to show encoded payloads decoded'} onClick={change}>
      {endpoint ? 'Codec: on' : 'Codec: off'}
    </button>
  );
}

/** "Sign out" while a credential is held: forgets it and reloads. */
export function SignOut() {
  if (getCredential() === undefined) return null;
  return <button type="button" class="toggle" title="forget the credential this browser sends" onClick={() => { setCredential(undefined); location.reload(); }}>Sign out</button>;
}
