import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import type { WireError } from '../protocol/wire-error.ts';
import { ValidationError } from '../errors/index.ts';

/*
 * What keeps a web page from driving an open server (`steadfast dev`, `steadfast server
 * --insecure`: no credential stands in its way) through the browser of a developer who opens it:
 *
 * - Every API call must say `Content-Type: application/json`. A page on another site can send a
 *   form or a `text/plain` (or untyped) `fetch` without asking the server first, but not a JSON
 *   one: that needs a CORS preflight, which the API never grants.
 * - On an open server a call whose `Origin` is not the server's own, or whose `Sec-Fetch-Site`
 *   says it comes from another site or another origin of this one, is refused.
 * - On an open server the `Host` header must name the server by an IP address or an allowed name
 *   (the loopback names by default): a page whose own domain name was made to resolve to
 *   127.0.0.1 (DNS rebinding) is same-origin in the browser's eyes, but its requests carry its
 *   domain as the Host. An IP address cannot be rebound, so any is accepted.
 *
 * With authentication on, a page cannot attach the credential (the web UI keeps it in its own
 * origin's storage, and the API sets no cookie), so only the content type rule applies.
 */

/** Host names an open server answers for besides IP addresses. */
export const LOOPBACK_HOST_NAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

/** Values of `Sec-Fetch-Site` a browser sends for a request of the page's own origin, or one the user typed. */
const SAME_ORIGIN_FETCH = new Set(['same-origin', 'none']);

const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** A refusal, as the server answers it. */
export interface Refusal {
  status: number;
  error: WireError;
}

/**
 * The host names of `allowedHosts` as the guard compares them (lower case, IPv6 in brackets),
 * with the loopback names.
 * @throws ValidationError naming `allowedHosts[i]` for a value that is not a bare host name.
 */
export function resolveAllowedHosts(allowedHosts: unknown): ReadonlySet<string> {
  if (allowedHosts !== undefined && !Array.isArray(allowedHosts)) {
    throw new ValidationError('allowedHosts', 'must be an array of host names', allowedHosts);
  }
  const out = new Set<string>(LOOPBACK_HOST_NAMES);
  (allowedHosts ?? []).forEach((h: unknown, i) => {
    const name = typeof h === 'string' ? h.toLowerCase().replace(/\.$/, '') : '';
    if (isIP(name) === 6) out.add(`[${name}]`);
    else if (HOST_NAME.test(name) || (name.startsWith('[') && name.endsWith(']') && isIP(name.slice(1, -1)) === 6)) out.add(name);
    else throw new ValidationError(`allowedHosts[${i}]`, 'must be a host name without scheme or port, such as steadfast.internal', h);
  });
  return out;
}

/** The name part of a Host header value (lower case; an IPv6 address keeps its brackets). */
function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.indexOf(':');
  return (colon < 0 ? h : h.slice(0, colon)).replace(/\.$/, '');
}

/**
 * Refuses a request to an open server whose `Host` names it by a name that is not allowed.
 * @returns the 403 to answer, or undefined to go on.
 */
export function refuseHost(headers: IncomingHttpHeaders, allowed: ReadonlySet<string>): Refusal | undefined {
  const host = headers.host ?? '';
  const name = hostName(host);
  const literal = name.startsWith('[') ? name.slice(1, -1) : name;
  if (allowed.has(name) || isIP(literal) !== 0) return undefined;
  return {
    status: 403,
    error: {
      code: 'PermissionDenied',
      message: `Host "${host}" is not a name this server answers to: a server without authentication accepts an IP address or `
        + `${[...allowed].join(', ')} (a page whose domain resolves to this machine must not reach it); start it with `
        + `--allowed-host ${name || '<name>'} (allowedHosts) to accept this name`,
    },
  };
}

/**
 * Refuses an API call that is not JSON, and, on an open server, one a page of another origin
 * sent. `method` names the call in the message; `scheme` is the server's (`http` or `https`).
 * @returns the 415 or 403 to answer, or undefined to go on.
 */
export function refuseCrossSiteCall(headers: IncomingHttpHeaders, method: string, open: boolean, scheme: string): Refusal | undefined {
  const type = headers['content-type'];
  const media = type?.split(';')[0]!.trim().toLowerCase();
  if (media !== 'application/json') {
    return {
      status: 415,
      error: {
        code: 'InvalidArgument',
        message: `${method} takes a JSON body sent with Content-Type: application/json, got ${type === undefined ? 'no Content-Type' : `Content-Type: ${type}`}`,
      },
    };
  }
  if (!open) return undefined;
  const site = headers['sec-fetch-site'];
  if (site !== undefined && !SAME_ORIGIN_FETCH.has(site)) {
    return crossOrigin(method, `it came from a page of another origin (Sec-Fetch-Site: ${site})`);
  }
  const origin = headers.origin;
  if (origin !== undefined) {
    const own = `${scheme}://${headers.host ?? ''}`.toLowerCase();
    if (origin.toLowerCase() !== own) return crossOrigin(method, `it came from a page of ${origin}, not of this server (${own})`);
  }
  return undefined;
}

function crossOrigin(method: string, why: string): Refusal {
  return {
    status: 403,
    error: {
      code: 'PermissionDenied',
      message: `${method} refused: ${why}; a server without authentication answers its own web UI, the CLI and clients, `
        + 'never a call another web page makes through the browser',
    },
  };
}
