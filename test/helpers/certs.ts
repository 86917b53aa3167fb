import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** PEM files of a throwaway CA, a server certificate for 127.0.0.1 and a client certificate. */
export interface TestCerts {
  dir: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** A second CA that signed nothing of the above. */
  otherCaCert: string;
  read(file: string): Buffer;
  remove(): void;
}

/** Makes the certificates with the `openssl` command line (EC P-256, valid one day). */
export function makeTestCerts(): TestCerts {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-certs-'));
  const f = (name: string) => join(dir, name);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ca = (name: string) => {
    ssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', f(`${name}.key`));
    ssl('req', '-x509', '-new', '-key', f(`${name}.key`), '-subj', `/CN=${name}`, '-days', '1', '-out', f(`${name}.pem`));
  };
  const leaf = (name: string, ext: string) => {
    ssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', f(`${name}.key`));
    ssl('req', '-new', '-key', f(`${name}.key`), '-subj', `/CN=${name}`, '-out', f(`${name}.csr`));
    writeFileSync(f(`${name}.ext`), ext);
    ssl('x509', '-req', '-in', f(`${name}.csr`), '-CA', f('test-ca.pem'), '-CAkey', f('test-ca.key'), '-CAcreateserial',
      '-days', '1', '-extfile', f(`${name}.ext`), '-out', f(`${name}.pem`));
  };
  ca('test-ca');
  ca('other-ca');
  leaf('server', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  leaf('client', 'extendedKeyUsage=clientAuth\n');
  return {
    dir, caCert: f('test-ca.pem'), serverCert: f('server.pem'), serverKey: f('server.key'), clientCert: f('client.pem'),
    clientKey: f('client.key'), otherCaCert: f('other-ca.pem'),
    read: (file) => readFileSync(file),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
