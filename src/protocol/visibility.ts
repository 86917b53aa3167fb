import type { SearchAttributeTypeName } from './enums.ts';
import type { SearchAttributeValue } from '../visibility/attributes.ts';

/* The visibility calls' requests and answers: count runs by a query in the filter language
 * (docs/visibility.md), and the custom search attributes of a namespace. */

/** A search attribute value as the API carries it: Datetime values are ISO 8601 strings. */
export type SearchAttributeWireValue = SearchAttributeValue;

/** Counts the runs a query selects. */
export interface CountWorkflowExecutionsRequest {
  /** @default "default" */
  namespace?: string | undefined;
  /** The filter language; `GROUP BY <attribute>` counts per value. @default "" (every run) */
  query?: string | undefined;
}

/** How many runs a query selects. */
export interface CountWorkflowExecutionsResponse {
  /** All the runs the query selects. */
  count: number;
  /** With GROUP BY: one entry per value, ordered by value, runs without a value last (value null). */
  groups?: { value: string | number | boolean | null; count: number }[] | undefined;
}

/** Registers a custom search attribute in a namespace. */
/** Removes custom search attributes of a namespace (Temporal's RemoveSearchAttributes). */
export interface RemoveSearchAttributesRequest {
  /** @default "default" */
  namespace?: string | undefined;
  /** The names of registered custom attributes. */
  names: string[];
}

export interface CreateSearchAttributeRequest {
  /** @default "default" */
  namespace?: string | undefined;
  /** Letters, digits and underscores, at most 64 characters; not a built-in name, not starting with `Temporal`. */
  name: string;
  /** The attribute's type, fixed once registered. */
  type: SearchAttributeTypeName;
}

/** Lists a namespace's search attributes. */
export interface ListSearchAttributesRequest {
  /** @default "default" */
  namespace?: string | undefined;
}

/** A namespace's search attributes. */
export interface ListSearchAttributesResponse {
  /** Registered in the namespace, by name. */
  custom: { name: string; type: SearchAttributeTypeName }[];
  /** Every run has these; start and upsert cannot set them. */
  builtIn: { name: string; type: SearchAttributeTypeName }[];
}
