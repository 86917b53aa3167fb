/** A steadfast dev server, a worker on task queue `ui` running test/fixtures/workflows/ui.ts, and headless Chromium. */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { Client } from '../../src/client/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { BIN, freePort, spawnNode, type Child } from '../helpers/processes.ts';

/** Where Debian's chromium package installs the browser; nothing downloads one. */
export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_MISSING = !existsSync(CHROMIUM);
/**
 * The `skip` of a browser suite: on a newcomer's machine without Chromium the suite is skipped
 * saying how to install it; under CI=true it runs, and {@link requireChromium} fails it.
 */
export const BROWSER_SKIP: string | false = CHROMIUM_MISSING && process.env.CI !== 'true'
  ? `${CHROMIUM} is missing (apt-get install -y chromium); browser tests skipped` : false;

/** Fails a browser suite loudly when Chromium is missing under CI=true (called in its `before`). */
export function requireChromium(): void {
  if (CHROMIUM_MISSING) throw new Error(`CI=true and ${CHROMIUM} is missing: .ci/run installs it with apt-get install -y chromium`);
}
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
/** `UPDATE_SCREENSHOTS=1` writes the README's screenshots; otherwise they go to the test's temporary folder. */
const DOC_SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/ui.ts', import.meta.url));
const quiet = () => undefined;

/** What {@link startUiEnv} started; `close` stops all of it and removes its files. */
export interface UiEnv {
  address: string;
  client: Client;
  page: Page;
  /** The folder screenshots go to. */
  shots: string;
  /** Waits until the dev server has printed a line matching `pattern` (its log, JSON lines on stderr). */
  serverOutput(pattern: RegExp): Promise<RegExpMatchArray>;
  close(): Promise<void>;
}

/** A second worker a suite runs beside the harness's own, quiet, stopped by `close`. */
export interface ExtraWorker {
  taskQueue: string;
  workflowsPath: string;
  /** The activities module (its non-function exports are left out by the worker). */
  activities: object;
  identity?: string;
}

/** Starts `steadfast dev` on a fresh SQLite file, a worker (and `extra`, when given) and a browser page. */
export async function startUiEnv(extra?: ExtraWorker): Promise<UiEnv> {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-ui-'));
  let dev: Child | undefined;
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  let second: Worker | undefined;
  let secondRunning: Promise<void> | undefined;
  let browser: BrowserContext | undefined;
  const close = async () => {
    await browser?.close();
    await second?.shutdown();
    await secondRunning;
    await worker?.shutdown();
    await running;
    await dev?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    dev = spawnNode([BIN, 'dev', '--port', String(await freePort()), '--db', join(dir, 'dev.sqlite'), '--namespace', 'elsewhere']);
    const address = (await dev.waitFor(/Web UI: (http:\/\/\S+)\//))[1]!;
    worker = await Worker.create({
      address, taskQueue: 'ui', workflowsPath, logger: { debug: quiet, info: quiet, warn: quiet, error: quiet },
      shutdownGraceTime: '100ms', activities: {},
    });
    running = worker.run();
    if (extra) {
      second = await Worker.create({
        address, ...extra, activities: extra.activities as never, logger: { debug: quiet, info: quiet, warn: quiet, error: quiet }, shutdownGraceTime: '100ms',
      });
      secondRunning = second.run();
    }
    browser = await chromium.launchPersistentContext(join(dir, 'chromium'), {
      executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1280, height: 900 },
    });
    const page = browser.pages()[0] ?? await browser.newPage();
    const shots = process.env.UPDATE_SCREENSHOTS === '1' ? DOC_SCREENSHOTS : join(dir, 'screenshots');
    mkdirSync(shots, { recursive: true });
    const server = dev;
    return { address, client: new Client({ address }), page, shots, serverOutput: (pattern) => server.waitFor(pattern, 10_000), close };
  } catch (err) {
    await close();
    throw err;
  }
}
