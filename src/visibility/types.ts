/**
 * The search-attribute type model and the typed tree of a visibility query. A parsed query
 * refers to attributes by name and holds raw literals; the checked query refers to resolved
 * attributes and holds values converted to their attribute's type.
 */

/** Search attribute types, as Temporal names them, in Temporal's order. */
export const SEARCH_ATTRIBUTE_TYPES = ['Keyword', 'Text', 'Int', 'Double', 'Bool', 'Datetime', 'KeywordList'] as const;

/** One of {@link SEARCH_ATTRIBUTE_TYPES}. */
export type SearchAttributeType = (typeof SEARCH_ATTRIBUTE_TYPES)[number];

/** A custom search attribute registered in a namespace. */
export interface SearchAttributeDefinition {
  /** Case-sensitive name used in queries and in start/upsert values. */
  readonly name: string;
  readonly type: SearchAttributeType;
}

/** The names of the built-in attributes every run has. */
export type BuiltInAttributeName =
  | 'WorkflowId' | 'WorkflowType' | 'RunId' | 'ExecutionStatus' | 'TaskQueue' | 'StartTime' | 'CloseTime'
  | 'ExecutionTime' | 'ExecutionDuration' | 'HistoryLength' | 'TemporalScheduledById' | 'TemporalScheduledStartTime'
  | 'TaskFailing';

/** Types of the built-in attributes, and whether a run may lack a value (open runs have no CloseTime). */
export const BUILT_IN_ATTRIBUTES: Readonly<Record<BuiltInAttributeName, { type: SearchAttributeType; nullable: boolean }>> = {
  WorkflowId: { type: 'Keyword', nullable: false },
  WorkflowType: { type: 'Keyword', nullable: false },
  RunId: { type: 'Keyword', nullable: false },
  ExecutionStatus: { type: 'Keyword', nullable: false },
  TaskQueue: { type: 'Keyword', nullable: false },
  StartTime: { type: 'Datetime', nullable: false },
  CloseTime: { type: 'Datetime', nullable: true },
  ExecutionTime: { type: 'Datetime', nullable: false },
  // Int as in Temporal; literals are durations ('1h30m') or integer nanoseconds, compared in ms.
  ExecutionDuration: { type: 'Int', nullable: true },
  HistoryLength: { type: 'Int', nullable: false },
  TemporalScheduledById: { type: 'Keyword', nullable: true },
  TemporalScheduledStartTime: { type: 'Datetime', nullable: true },
  // True while the run's workflow task keeps failing (false once one completes, and once the run closes).
  TaskFailing: { type: 'Bool', nullable: false },
};

/** Whether a name is one of the built-in attributes. */
export function isBuiltInAttribute(name: string): name is BuiltInAttributeName {
  return Object.prototype.hasOwnProperty.call(BUILT_IN_ATTRIBUTES, name);
}

/** A comparison operator of the filter language. */
export type ComparisonOperator = '=' | '!=' | '>' | '>=' | '<' | '<=';

/** An attribute as written in a query; `column` is its 1-based position in the query text. */
export interface AttributeRef {
  readonly name: string;
  readonly column: number;
}

/** A literal as written in a query, before type checking. */
export type Literal =
  | { readonly kind: 'string'; readonly value: string; readonly column: number }
  | { readonly kind: 'number'; readonly value: number; readonly text: string; readonly column: number }
  | { readonly kind: 'bool'; readonly value: boolean; readonly column: number };

/**
 * A filter expression over attributes of kind `A` holding values of kind `V`: the parser
 * yields `Filter<AttributeRef, Literal>`, the type checker `Filter<ResolvedAttribute, QueryValue>`.
 */
export type Filter<A, V> =
  | { readonly kind: 'compare'; readonly attribute: A; readonly op: ComparisonOperator; readonly value: V }
  | { readonly kind: 'in'; readonly attribute: A; readonly negated: boolean; readonly values: readonly V[] }
  | { readonly kind: 'between'; readonly attribute: A; readonly negated: boolean; readonly low: V; readonly high: V }
  | { readonly kind: 'startsWith'; readonly attribute: A; readonly negated: boolean; readonly prefix: V }
  | { readonly kind: 'isNull'; readonly attribute: A; readonly negated: boolean }
  | { readonly kind: 'and'; readonly operands: readonly Filter<A, V>[] }
  | { readonly kind: 'or'; readonly operands: readonly Filter<A, V>[] };

/** One ORDER BY term. */
export interface OrderTerm<A> {
  readonly attribute: A;
  readonly direction: 'ASC' | 'DESC';
}

/** A whole query: an optional filter, GROUP BY attributes (count only) and ORDER BY terms (list only). */
export interface Query<A, V> {
  readonly filter?: Filter<A, V>;
  readonly groupBy: readonly A[];
  readonly orderBy: readonly OrderTerm<A>[];
}

/** The parser's output. */
export type ParsedQuery = Query<AttributeRef, Literal>;

/** An attribute resolved against the built-ins and the namespace's definitions. */
export interface ResolvedAttribute {
  readonly name: string;
  readonly type: SearchAttributeType;
  readonly builtIn: boolean;
  readonly nullable: boolean;
}

/**
 * A value converted to its attribute's type: strings for Keyword, Text and KeywordList
 * (one element), numbers for Int and Double, booleans for Bool, and epoch milliseconds for
 * Datetime and ExecutionDuration (fractional when the literal is finer than a millisecond).
 */
export type QueryValue = string | number | boolean;

/** The type checker's output, ready for a SQL compiler. */
export type CheckedQuery = Query<ResolvedAttribute, QueryValue>;

/** A checked filter. */
export type CheckedFilter = Filter<ResolvedAttribute, QueryValue>;
