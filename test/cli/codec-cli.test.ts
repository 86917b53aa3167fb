import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../../src/client/index.ts';
import { fixtureTest } from '../helpers/fixture.ts';
import { silentLogger } from '../helpers/logger.ts';
import { BIN, freePort, spawnNode } from '../helpers/processes.ts';
import { hashApiKey, startHttpServer } from '../../src/server/index.ts';
import { KEYS } from '../server/auth-helpers.ts';
import { CODEC_WORKFLOWS, codecK1, KEY_1, SECRET } from '../codec/helpers.ts';

fixtureTest('steadfast workflow result, describe and history show decoded payloads through --codec-endpoint, and <encoded …> without it', async (f) => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-codec-cli-'));
  f.defer('dir', () => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'keys.json'), JSON.stringify({ currentKeyId: 'k1', keys: { k1: KEY_1.toString('base64') } }));
  writeFileSync(join(dir, 'api-keys.json'), JSON.stringify({ keys: [
    { sha256: hashApiKey(KEYS.reader), identity: 'reader', permissions: ['default:reader'] },
    { sha256: hashApiKey(KEYS.otherWriter), identity: 'other', permissions: ['other:writer'] },
  ] }));
  const env = await f.env();
  const server = await startHttpServer({ service: env.connection, port: 0 });
  f.defer('server', () => server.close());
  const dataConverter = { payloadCodecs: [codecK1()] };
  const client = new Client({ connection: env.connection, dataConverter });
  await f.worker({ connection: env.connection, taskQueue: 'cli-codec', workflowsPath: CODEC_WORKFLOWS, logger: silentLogger, dataConverter });
  await client.workflow.execute('echo', { workflowId: 'cli-codec', taskQueue: 'cli-codec', args: [SECRET], memo: { owner: SECRET } });

  const codecServer = spawnNode([BIN, 'codec-server', '--key-file', join(dir, 'keys.json'), '--port', String(await freePort()),
    '--api-keys', join(dir, 'api-keys.json')]);
  f.defer('codec server', async () => {
    await codecServer.kill('SIGTERM');
  });
  const endpoint = (await codecServer.waitFor(/listening on (http:\/\/\S+)/))[1]!;
  const cli = async (...args: string[]) => {
    const child = spawnNode([BIN, 'workflow', ...args, '--address', server.address, '--retry-for', '300ms']);
    return { code: await child.exited, out: child.output() };
  };

  const result = await cli('result', 'cli-codec', '--codec-endpoint', endpoint, '--api-key', KEYS.reader);
  assert.equal(result.code, 0, result.out);
  assert.equal(result.out.trim(), JSON.stringify(SECRET));
  const described = await cli('describe', 'cli-codec', '--codec-endpoint', endpoint, '--api-key', KEYS.reader, '--json');
  assert.equal(described.code, 0, described.out);
  assert.deepEqual(JSON.parse(described.out).memo, { owner: SECRET });
  const history = await cli('history', 'cli-codec', '--codec-endpoint', endpoint, '--api-key', KEYS.reader, '--json');
  assert.equal(history.code, 0, history.out);
  assert.deepEqual(JSON.parse(history.out).events[0].attributes.args, [SECRET]);

  const encoded = await cli('history', 'cli-codec');
  assert.equal(encoded.code, 0, encoded.out);
  assert.ok(!encoded.out.includes(SECRET));
  assert.match(encoded.out, /<encoded binary\/encrypted key k1>/);

  const refused = await cli('result', 'cli-codec', '--codec-endpoint', endpoint, '--api-key', KEYS.otherWriter);
  assert.equal(refused.code, 1);
  assert.match(refused.out, /answered 403: \/codec\/decode needs the reader role on namespace "default"/);
  assert.ok(!refused.out.includes(SECRET));
});
