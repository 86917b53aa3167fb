/**
 * The visibility calls of the service contract: list and count runs by a query in the filter
 * language (docs/visibility.md), and the custom search attributes of a namespace.
 */
export interface VisibilityService {
  /** How many runs a query selects; with `GROUP BY`, how many per value. */
  countWorkflowExecutions(req: CountWorkflowExecutionsRequest): Promise<CountWorkflowExecutionsResponse>;
  /** Registers a custom search attribute in a namespace. */
  createSearchAttribute(req: CreateSearchAttributeRequest): Promise<void>;
  /** The search attributes of a namespace: the built-in ones and the registered ones. */
  listSearchAttributes(req: ListSearchAttributesRequest): Promise<ListSearchAttributesResponse>;
}

/** Calls of {@link VisibilityService}, listed in WORKFLOW_SERVICE_METHODS. */
export const VISIBILITY_SERVICE_METHODS = ['countWorkflowExecutions', 'createSearchAttribute', 'listSearchAttributes'] as const;

/** A search attribute type, as Temporal names them. */
export type SearchAttributeTypeName = 'Keyword' | 'Text' | 'Int' | 'Double' | 'Bool' | 'Datetime' | 'KeywordList';

/** A search attribute value as the API carries it: Datetime values are ISO 8601 strings. */
export type SearchAttributeWireValue = string | number | boolean | readonly string[];

export interface CountWorkflowExecutionsRequest {
  namespace?: string;
  /** The filter language; `GROUP BY <attribute>` counts per value. @default "" (every run) */
  query?: string;
}

export interface CountWorkflowExecutionsResponse {
  count: number;
  /** With GROUP BY: one entry per value, ordered by value, runs without a value last (value null). */
  groups?: { value: string | number | boolean | null; count: number }[];
}

export interface CreateSearchAttributeRequest {
  namespace?: string;
  /** Letters, digits and underscores, at most 64 characters; not a built-in name, not starting with `Temporal`. */
  name: string;
  type: SearchAttributeTypeName;
}

export interface ListSearchAttributesRequest {
  namespace?: string;
}

export interface ListSearchAttributesResponse {
  /** Registered in the namespace, by name. */
  custom: { name: string; type: SearchAttributeTypeName }[];
  /** Every run has these; start and upsert cannot set them. */
  builtIn: { name: string; type: SearchAttributeTypeName }[];
}
