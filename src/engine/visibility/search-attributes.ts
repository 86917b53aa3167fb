import type { AttributeDefinitions } from '../core/commands.ts';
import type { ListWorkflowExecutionsRequest } from '../../protocol/index.ts';
import type {
  CountWorkflowExecutionsRequest, CountWorkflowExecutionsResponse, CreateSearchAttributeRequest, ListSearchAttributesRequest,
  ListSearchAttributesResponse, RemoveSearchAttributesRequest, SearchAttributeWireValue,
} from '../../protocol/index.ts';
import { ServiceError } from '../../common/errors.ts';
import { ValidationError } from '../../errors/index.ts';
import type { ExecutionRecord, Store } from '../../store/types.ts';
import type { Command } from '../../history/commands.ts';
import { mergeSearchAttributes } from '../../history/search-attribute-values.ts';
import {
  validateNewAttribute, validateSearchAttributes, validateUpsertAttributes, type SearchAttributeValue,
} from '../../visibility/attributes.ts';
import type { SearchAttributeDefinition } from '../../visibility/types.ts';
import { BUILT_IN_ATTRIBUTES } from '../../visibility/types.ts';
import { parseQuery } from '../../visibility/parser.ts';
import { parseRequest } from '../../protocol/parse.ts';
import {
  countWorkflowExecutionsRequestSchema, createSearchAttributeRequestSchema, listSearchAttributesRequestSchema, removeSearchAttributesRequestSchema,
} from '../../protocol/schemas/visibility.ts';

/* Visibility in the engine: the search attributes a run carries (set at start, changed by
 * upsert, carried along its chain), the shorthand list filters as a query, count, and the
 * registration of a namespace's attributes. */

/** A query's text: any string (empty lists everything), checked for type and length by the parser. */
function optionalQuery(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  parseQuery(value as string);
  return value as string;
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * The query a (validated) list request asks for: its `query`, or its shorthand filters written
 * in the filter language, so that every list takes one path.
 * @throws ValidationError when a filter is malformed or combined with `query`.
 */
export function listQueryText(req: ListWorkflowExecutionsRequest): string {
  const query = optionalQuery(req.query);
  const terms: string[] = [];
  if (req.workflowType !== undefined) terms.push(`WorkflowType = ${quote(req.workflowType)}`);
  if (req.status !== undefined) terms.push(`ExecutionStatus = ${quote(req.status)}`);
  if (req.workflowIdPrefix !== undefined) terms.push(`WorkflowId STARTS_WITH ${quote(req.workflowIdPrefix)}`);
  const bounds = [['startTimeFrom', 'StartTime >='], ['startTimeTo', 'StartTime <='], ['closeTimeFrom', 'CloseTime >='], ['closeTimeTo', 'CloseTime <=']] as const;
  for (const [key, op] of bounds) {
    const time = req[key];
    if (time !== undefined) terms.push(`${op} ${quote(new Date(time).toISOString())}`);
  }
  if (query !== undefined && query.trim() !== '' && terms.length > 0) {
    throw new ValidationError('query', 'cannot be combined with workflowType, status, workflowIdPrefix or the time filters; write them in the query', query);
  }
  return query ?? terms.join(' AND ');
}

/** countWorkflowExecutions: the number of runs a query selects, by group with GROUP BY. */
export async function countExecutions(store: Store, input: CountWorkflowExecutionsRequest): Promise<CountWorkflowExecutionsResponse> {
  const req = parseRequest(countWorkflowExecutionsRequestSchema, input);
  const query = optionalQuery(req.query) ?? '';
  const c = await store.countExecutions({ namespace: req.namespace, query });
  return c.groups ? { count: c.count, groups: c.groups } : { count: c.count };
}

/** createSearchAttribute: validates the definition and registers it in the namespace. */
export async function createSearchAttribute(store: Store, input: CreateSearchAttributeRequest): Promise<void> {
  const req = parseRequest(createSearchAttributeRequestSchema, input);
  await store.createSearchAttribute(req.namespace, validateNewAttribute(req));
}

/**
 * removeSearchAttributes: removes custom attributes of the namespace; their values leave the
 * visibility rows, so a query naming one is refused as for a name never registered. Every name
 * is checked before any is removed.
 */
export async function removeSearchAttributes(store: Store, input: RemoveSearchAttributesRequest): Promise<void> {
  const req = parseRequest(removeSearchAttributesRequestSchema, input);
  const registered = new Set((await store.listSearchAttributes(req.namespace)).map((a) => a.name));
  req.names.forEach((name, i) => {
    if (name in BUILT_IN_ATTRIBUTES) throw new ValidationError(`names[${i}]`, 'must be a custom search attribute, not a built-in one', name);
    if (!registered.has(name)) throw new ServiceError('NotFound', `search attribute ${name} is not registered in namespace ${req.namespace}`);
  });
  for (const name of new Set(req.names)) await store.removeSearchAttribute(req.namespace, name);
}

/** listSearchAttributes: the namespace's registered attributes and the built-in ones. */
export async function listSearchAttributes(store: Store, input: ListSearchAttributesRequest): Promise<ListSearchAttributesResponse> {
  const req = parseRequest(listSearchAttributesRequestSchema, input);
  const custom = await store.listSearchAttributes(req.namespace);
  const builtIn = Object.entries(BUILT_IN_ATTRIBUTES).map(([name, a]) => ({ name, type: a.type }));
  return { custom, builtIn };
}

/**
 * Checks search attribute values given at start (`field` names the option) against the
 * namespace's registered attributes; answers them normalized, without nulls.
 * @throws InvalidSearchAttributeError naming the attribute when one is unregistered or of the wrong type.
 */
export async function validateStartAttributes(
  store: Store, namespace: string, values: unknown, field = 'searchAttributes',
): Promise<Record<string, SearchAttributeValue> | undefined> {
  if (values === undefined || values === null) return undefined;
  const valid = validateSearchAttributes(await store.listSearchAttributes(namespace), values, field);
  return mergeSearchAttributes<SearchAttributeValue>(undefined, valid);
}

/**
 * The namespaces whose registered attributes a completion's commands are checked against: the
 * run's for an upsert or a continue-as-new that gives attributes, the child's for a child start
 * that gives them. Empty for a completion without search attributes, which reads nothing more.
 */
export function searchAttributeNamespaces(commands: readonly Command[], runNamespace: string): string[] {
  const out = new Set<string>();
  for (const c of commands) {
    const a = c.attributes as Record<string, unknown>;
    if (c.commandType === 'UpsertWorkflowSearchAttributes') out.add(runNamespace);
    else if (c.commandType === 'ContinueAsNewWorkflowExecution' && a.searchAttributes !== undefined) out.add(runNamespace);
    else if (c.commandType === 'StartChildWorkflowExecution' && a.searchAttributes !== undefined) {
      out.add(typeof a.namespace === 'string' ? a.namespace : runNamespace);
    }
  }
  return [...out];
}

/** The registered attributes of each namespace named, read before a completion's transaction. */
export async function loadAttributeDefinitions(store: Store, namespaces: readonly string[]): Promise<AttributeDefinitions> {
  const out = new Map<string, readonly SearchAttributeDefinition[]>();
  for (const namespace of namespaces) out.set(namespace, await store.listSearchAttributes(namespace));
  return out;
}

/** Registered attributes by namespace, as {@link loadAttributeDefinitions} read them. */
export type { AttributeDefinitions };

/**
 * Checks the search attributes a command gives (`field` names the workflow API that gave them)
 * against `namespace`'s registered attributes, in Temporal's upsert shape (an array of one value
 * for a single-valued type; `null` or `[]` removes). Answers them as stored, removals as `null`.
 * @throws InvalidSearchAttributeError naming the attribute (the workflow task fails, BadSearchAttributes).
 */
export function commandSearchAttributes(
  definitions: AttributeDefinitions, namespace: string, values: unknown, field: string,
): Record<string, SearchAttributeValue | null> {
  const registered = definitions.get(namespace);
  // searchAttributeNamespaces names every namespace a command with attributes needs.
  if (!registered) throw new Error(`the search attributes of namespace ${namespace} were not loaded for ${field}`);
  return validateUpsertAttributes(registered, values, field);
}

/** The search attributes describe and list show for a run: its custom ones and the schedule's. */
export function searchAttributesOf(rec: ExecutionRecord): Record<string, SearchAttributeWireValue> | undefined {
  const out: Record<string, SearchAttributeWireValue> = { ...rec.searchAttributes };
  if (rec.scheduledById !== undefined) out.TemporalScheduledById = rec.scheduledById;
  if (rec.scheduledStartTime !== undefined) out.TemporalScheduledStartTime = new Date(rec.scheduledStartTime).toISOString();
  return Object.keys(out).length > 0 ? out : undefined;
}
