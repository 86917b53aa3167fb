import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { Authenticator, JwtVerifier } from '../../src/server/index.ts';
import { authServer, post } from './auth-helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'steadfast-jwt-'));
let signing: CryptoKey;
let stranger: CryptoKey;
let server: Awaited<ReturnType<typeof authServer>>;

async function token(claims: Record<string, unknown>, opts: { key?: CryptoKey; exp?: string; kid?: string; iss?: string } = {}): Promise<string> {
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'ES256', ...(opts.kid ? { kid: opts.kid } : {}) }).setIssuedAt()
    .setSubject('alice@example.com').setExpirationTime(opts.exp ?? '5m');
  if (opts.iss) jwt = jwt.setIssuer(opts.iss);
  return jwt.sign(opts.key ?? signing);
}

before(async () => {
  const pair = await generateKeyPair('ES256');
  signing = pair.privateKey;
  stranger = (await generateKeyPair('ES256')).privateKey;
  writeFileSync(join(dir, 'jwt.pem'), await exportSPKI(pair.publicKey));
  writeFileSync(join(dir, 'jwks.json'), JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' }] }));
  server = await authServer({ jwt: { publicKeyFile: join(dir, 'jwt.pem'), issuer: 'https://issuer.example' } });
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a JWT with a permissions claim is mapped to roles per namespace, as Temporal\'s default claim mapper does', async () => {
  const iss = 'https://issuer.example';
  const reader = await token({ permissions: ['default:reader'] }, { iss });
  assert.equal((await post(server.http.address, 'listWorkflowExecutions', {}, reader)).status, 200);
  const refused = await post(server.http.address, 'startWorkflowExecution', { workflowId: 'w', workflowType: 't', taskQueue: 'q' }, reader);
  assert.equal(refused.json.error.message, 'startWorkflowExecution needs the writer role on namespace "default"');
  const system = await token({ permissions: ['system:admin'] }, { iss });
  await server.engine.registerNamespace({ namespace: 'any' });
  assert.equal((await post(server.http.address, 'listWorkflowExecutions', { namespace: 'any' }, system)).status, 200);
  const none = await token({}, { iss });
  assert.equal((await post(server.http.address, 'listWorkflowExecutions', {}, none)).status, 403, 'no permissions claim grants nothing');
});

test('expired, foreign-signed, wrong-issuer and unsigned JWTs are 401', async () => {
  const iss = 'https://issuer.example';
  const bad = [
    await token({ permissions: ['system:admin'] }, { iss, exp: '-2m' }),
    await token({ permissions: ['system:admin'] }, { iss, key: stranger }),
    await token({ permissions: ['system:admin'] }, { iss: 'https://elsewhere.example' }),
    `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'x', iss, permissions: ['system:admin'] })).toString('base64url')}.`,
  ];
  for (const jwt of bad) {
    const { status, json } = await post(server.http.address, 'listWorkflowExecutions', {}, jwt);
    assert.equal(status, 401, jwt);
    assert.equal(json.error.code, 'Unauthenticated');
  }
});

test('a JWKS file picks the key by kid; bad key files are named', async () => {
  const verifier = JwtVerifier.load({ jwksFile: join(dir, 'jwks.json') });
  const principal = await verifier.verify(await token({ permissions: ['default:writer'] }, { kid: 'k1' }));
  assert.deepEqual(principal, { identity: 'alice@example.com', permissions: [{ namespace: 'default', role: 'writer' }] });
  assert.equal(await verifier.verify(await token({ permissions: [] }, { kid: 'k2', key: stranger })), undefined);
  writeFileSync(join(dir, 'bad.pem'), 'not a key');
  assert.throws(() => JwtVerifier.load({ publicKeyFile: join(dir, 'bad.pem') }), /^ValidationError: jwt\.publicKeyFile must be a PEM public key/);
  assert.throws(() => Authenticator.create({}), /auth must configure apiKeys or jwt/);
});
