import { z } from 'zod';
import { int, keyPageToken, optional, text } from '../fields.ts';
import { DEFAULT_LIST_PAGE_SIZE, MAX_ID_LENGTH, MAX_LIST_PAGE_SIZE, MAX_NAME_LENGTH } from '../limits.ts';
import {
  MAX_NAMESPACE_DESCRIPTION_LENGTH, validateNamespaceName, validateRetentionMs, type DeleteNamespaceRequest, type DescribeNamespaceRequest,
  type ListNamespacesRequest,
  type RegisterNamespaceRequest, type UpdateNamespaceRequest,
} from '../namespaces.ts';
import { schemaOf } from '../parse.ts';

/* The schemas of the namespace calls' requests (namespaces.ts). */

const description = optional(z.string({ error: 'must be a string' })
  .max(MAX_NAMESPACE_DESCRIPTION_LENGTH, `must be at most ${MAX_NAMESPACE_DESCRIPTION_LENGTH} characters`));
const ownerEmail = optional(text(MAX_NAME_LENGTH).regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address such as ops@example.com'));
/** The name rules throw their own ValidationError (the schema passes it on), one rule at a time. */
const newName = z.unknown().transform((v) => validateNamespaceName(v));
const retention = optional(z.unknown().transform((v) => validateRetentionMs(v)));

/** Schema of {@link RegisterNamespaceRequest}. */
export const registerNamespaceRequestSchema = schemaOf<RegisterNamespaceRequest>()(z.object({
  namespace: newName,
  description,
  ownerEmail,
  workflowExecutionRetentionPeriodMs: retention,
}));

/** Schema of {@link DescribeNamespaceRequest}: any name may be asked about; an unknown one is NotFound. */
export const describeNamespaceRequestSchema = schemaOf<DescribeNamespaceRequest>()(z.object({ namespace: text(MAX_ID_LENGTH) }));

/** Schema of {@link DeleteNamespaceRequest}: `default` is refused by the engine, which names the rule. */
export const deleteNamespaceRequestSchema = schemaOf<DeleteNamespaceRequest>()(z.object({ namespace: text(MAX_ID_LENGTH) }));

/** Schema of {@link UpdateNamespaceRequest}. */
export const updateNamespaceRequestSchema = schemaOf<UpdateNamespaceRequest>()(z.object({
  namespace: text(MAX_ID_LENGTH),
  description,
  ownerEmail,
  workflowExecutionRetentionPeriodMs: retention,
}));

/** Schema of {@link ListNamespacesRequest}. */
export const listNamespacesRequestSchema = schemaOf<ListNamespacesRequest>()(z.object({
  pageSize: optional(int(1, MAX_LIST_PAGE_SIZE)).default(DEFAULT_LIST_PAGE_SIZE),
  nextPageToken: optional(keyPageToken(MAX_ID_LENGTH)),
}));
