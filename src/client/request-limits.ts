import { DEFAULT_MAX_PAYLOAD_BYTES, encodePayload, toPayload } from '../common/payload.ts';
import { checkPayloadDepth } from '../protocol/payload-depth.ts';
import { checkRequestDepth, PAYLOAD_FIELDS } from '../protocol/request-text.ts';

/*
 * The limits of the wire contract a client checks before it sends, so that a request the server
 * would refuse fails at once with the field named, rather than as an answer (or, from an older
 * server, a cut connection the client would take for an outage and retry).
 */

/**
 * A user value as a payload, checked: at most MAX_PAYLOAD_DEPTH levels deep (first, so that an
 * over-deep value gets that error and not a stack overflow from the walk), then toPayload.
 * @throws ValidationError naming the field.
 */
export function payloadOf<T>(field: string, value: T): T {
  checkPayloadDepth(field, value);
  return toPayload(field, value);
}

/**
 * The JSON text of a service request, after checking that its payloads nest at most
 * MAX_PAYLOAD_DEPTH levels and that none is over the payload size limit (2 MiB), as the server
 * checks them.
 * @throws ValidationError naming the payload's field path and the limit.
 */
export function requestText(request: unknown): string {
  checkRequestDepth(request);
  const text = JSON.stringify(request);
  // A body within the limit holds no payload over it: the fields are measured only past it.
  if (Buffer.byteLength(text) > DEFAULT_MAX_PAYLOAD_BYTES) checkPayloadSizes(request);
  return text;
}

/** Measures every payload field of a request, at any depth; throws encodePayload's error for one over the limit. */
function checkPayloadSizes(request: unknown): void {
  const stack: [string, unknown][] = [['', request]];
  while (stack.length > 0) {
    const [path, value] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push([`${path}[${i}]`, v]));
      continue;
    }
    for (const [key, v] of Object.entries(value)) {
      const at = path === '' ? key : `${path}.${key}`;
      if (PAYLOAD_FIELDS.has(key)) encodePayload(at, v);
      else stack.push([at, v]);
    }
  }
}
