import { z } from 'zod';
import type { SearchAttributeTypeName } from '../enums.ts';
import { checkedLater, namespace } from '../fields.ts';
import { schemaOf } from '../parse.ts';
import type { CountWorkflowExecutionsRequest, CreateSearchAttributeRequest, ListSearchAttributesRequest, RemoveSearchAttributesRequest } from '../visibility.ts';

/* The schemas of the visibility calls' requests (visibility.ts). */

/** Schema of {@link CountWorkflowExecutionsRequest}; the query text is checked by its parser (visibility/, a later layer). */
export const countWorkflowExecutionsRequestSchema = schemaOf<CountWorkflowExecutionsRequest>()(z.object({
  namespace,
  query: checkedLater<string>(),
}));

/** Schema of {@link CreateSearchAttributeRequest}; the name and type are checked by the attribute model (visibility/, a later layer). */
export const createSearchAttributeRequestSchema = schemaOf<CreateSearchAttributeRequest>()(z.object({
  namespace,
  name: checkedLater<string>(),
  type: checkedLater<SearchAttributeTypeName>(),
}));

/** Schema of {@link ListSearchAttributesRequest}. */
export const listSearchAttributesRequestSchema = schemaOf<ListSearchAttributesRequest>()(z.object({ namespace }));

/** Schema of {@link RemoveSearchAttributesRequest}. */
export const removeSearchAttributesRequestSchema = schemaOf<RemoveSearchAttributesRequest>()(z.object({
  namespace,
  names: z.array(z.string().min(1).max(64)).min(1).max(100),
}));
