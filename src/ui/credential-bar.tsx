import { useEffect, useState } from 'preact/hooks';
import { getCredential, onUnauthenticated, setCredential } from './credential.ts';

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

/** "Sign out" while a credential is held: forgets it and reloads. */
export function SignOut() {
  if (getCredential() === undefined) return null;
  return <button type="button" class="toggle" title="forget the credential this browser sends" onClick={() => { setCredential(undefined); location.reload(); }}>Sign out</button>;
}
