import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** One file of the web UI, ready to send. */
export interface UiAsset {
  path: string;
  contentType: string;
  body: Buffer;
  gzipped: Buffer;
  etag: string;
}

// The same path from src/server/ (a checkout) and dist/server/ (the package, which ships src/).
const UI_DIR = fileURLToPath(new URL('../../src/ui/', import.meta.url));

function asset(path: string, contentType: string, body: Buffer): UiAsset {
  return { path, contentType, body, gzipped: gzipSync(body, { level: 9 }), etag: `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"` };
}

/**
 * Bundles the web UI from `src/ui/` with esbuild (minified, in memory): `index.html`,
 * `/assets/app.js` and `/assets/app.css`. Takes a few hundred ms, so servers do it on the first
 * request for a page, not at start.
 */
export async function buildUiAssets(): Promise<Map<string, UiAsset>> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: { app: `${UI_DIR}main.tsx` },
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: '/assets',
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const assets = new Map<string, UiAsset>();
  for (const file of result.outputFiles) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    const type = name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
    assets.set(`/assets/${name}`, asset(`/assets/${name}`, type, Buffer.from(file.contents)));
  }
  assets.set('/index.html', asset('/index.html', 'text/html; charset=utf-8', readFileSync(`${UI_DIR}index.html`)));
  return assets;
}

/** Options of {@link uiRoute}. */
export interface UiRouteOptions {
  /**
   * Bundle now rather than on the first request: the first page then paints in about 100 ms
   * instead of about 700 ms (measured on a 2-core machine). @default false
   */
  warm?: boolean;
}

/**
 * The HTTP server's `fallback` that serves the web UI: GET or HEAD of `/assets/*` answers the
 * bundle, any other path answers `index.html` (the UI routes in the browser). Gzipped when the
 * browser accepts it; revalidated by ETag.
 */
export function uiRoute(options: UiRouteOptions = {}): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  let built: Promise<Map<string, UiAsset>> | undefined;
  if (options.warm) {
    built = buildUiAssets();
    // A failed build is reported by the request that needs it.
    built.catch(() => undefined);
  }
  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    built ??= buildUiAssets();
    let assets: Map<string, UiAsset>;
    try {
      assets = await built;
    } catch (err) {
      built = undefined;
      throw err;
    }
    const file = path.startsWith('/assets/') ? assets.get(path) : assets.get('/index.html');
    if (!file) return false;
    if (req.headers['if-none-match'] === file.etag) {
      res.writeHead(304, { etag: file.etag });
      res.end();
      return true;
    }
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const body = gzip ? file.gzipped : file.body;
    res.writeHead(200, {
      'content-type': file.contentType,
      'content-length': body.length,
      etag: file.etag,
      'cache-control': 'no-cache',
      vary: 'accept-encoding',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  };
}
