import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnNode } from '../helpers/processes.ts';

test('the published build has a module and declarations for every export, and they load', { timeout: 120_000 }, async () => {
  // Inside the checkout, so the built modules resolve the package's dependencies.
  const out = mkdtempSync(join(fileURLToPath(new URL('../../', import.meta.url)), '.test-dist-'));
  try {
    const build = spawnNode(['scripts/build.mjs', out]);
    assert.equal(await build.exited, 0, build.output());
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, { types?: string; default?: string } | string>;
    };
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      if (typeof target === 'string') continue;
      for (const file of [target.default!, target.types!]) {
        const path = join(out, file.replace(/^\.\/dist\//, ''));
        assert.ok(existsSync(path), `${subpath}: ${file} is built`);
      }
      if (subpath === './workflow') continue; // runs only inside a workflow sandbox
      const mod = await import(pathToFileURL(join(out, target.default!.replace(/^\.\/dist\//, ''))).href) as object;
      assert.ok(Object.keys(mod).length > 0, `${subpath} exports something`);
      if (subpath === './codec') {
        for (const name of ['AesGcmCodec', 'CompressionCodec', 'RemotePayloadCodec', 'UnknownEncryptionKeyError']) assert.ok(name in mod, `./codec exports ${name}`);
      }
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
