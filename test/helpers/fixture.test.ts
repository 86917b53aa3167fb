import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { fixtureTest, runWithFixture } from './fixture.ts';
import { silentLogger } from './logger.ts';

test('a server the test leaves listening fails it, by name', async () => {
  let server: Server | undefined;
  try {
    await assert.rejects(runWithFixture(async () => {
      server = createServer().listen(0, '127.0.0.1');
      await once(server, 'listening');
    }), /the test left behind 1 TCPServerWrap/);
  } finally {
    server?.close();
  }
});

test('a timer the test leaves pending fails it', async () => {
  let timer: NodeJS.Timeout | undefined;
  try {
    await assert.rejects(runWithFixture(async () => {
      timer = setTimeout(() => undefined, 60_000);
    }), /the test left behind 1 Timeout/);
  } finally {
    clearTimeout(timer);
  }
});

test('a worker the test never shuts down fails it; one started through the fixture does not', async () => {
  const { TestEnvironment } = await import('../../src/testing/index.ts');
  const { Worker } = await import('../../src/worker/index.ts');
  const env = await TestEnvironment.createTimeSkipping();
  try {
    let leaked: Awaited<ReturnType<typeof Worker.create>> | undefined;
    let running: Promise<void> | undefined;
    try {
      await assert.rejects(runWithFixture(async () => {
        leaked = await Worker.create({ address: env.address, taskQueue: 'leak', activities: { a: async () => 1 }, logger: silentLogger });
        running = leaked.run();
      }), /the test left behind \d+ (TCPWrap|Timeout)/);
    } finally {
      await leaked?.shutdown();
      await running;
    }
    await runWithFixture(async (f) => {
      await f.worker({ address: env.address, taskQueue: 'kept', activities: { a: async () => 1 }, logger: silentLogger });
    });
  } finally {
    await env.teardown();
  }
});

test('an environment that is not torn down fails the test', async () => {
  const { TestEnvironment } = await import('../../src/testing/index.ts');
  let env: Awaited<ReturnType<typeof TestEnvironment.createTimeSkipping>> | undefined;
  try {
    await assert.rejects(runWithFixture(async () => {
      env = await TestEnvironment.createTimeSkipping();
    }), /the test left behind .*TCPServerWrap/);
  } finally {
    await env?.teardown();
  }
});

test('the fixture tears down what it started, the last first, even when the test fails', async () => {
  const order: string[] = [];
  await assert.rejects(runWithFixture(async (f) => {
    await f.env();
    f.defer('first', () => order.push('first'));
    f.defer('second', () => order.push('second'));
    throw new Error('the test failed');
  }), /the test failed/);
  assert.deepEqual(order, ['second', 'first']);
});

fixtureTest('a test through the fixture that closes everything passes', async (f) => {
  const env = await f.env();
  assert.match(env.address, /^http:\/\/127\.0\.0\.1:\d+$/);
});
