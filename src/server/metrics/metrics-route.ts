import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerMetrics } from './server-metrics.ts';

/** The path Prometheus scrapes. */
export const METRICS_PATH = '/metrics';

/** Answers `GET /metrics` with the text exposition; true when the request was this route's. */
export async function answerMetrics(metrics: ServerMetrics, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  if (path !== METRICS_PATH) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET', 'content-type': 'text/plain; charset=utf-8' });
    res.end(`${METRICS_PATH} takes GET, got ${req.method}\n`);
    return true;
  }
  const { contentType, text } = await metrics.scrape();
  res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(req.method === 'HEAD' ? undefined : text);
  return true;
}
