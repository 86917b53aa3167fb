import { ValidationError } from '../errors/index.ts';
import { MAX_DURATION_MS, MAX_DURATION_RULE } from '../common/max-duration.ts';
import { MAX_ID_LENGTH } from './limits.ts';

/* The namespace calls' requests and answers (Temporal's RegisterNamespace, DescribeNamespace,
 * ListNamespaces and UpdateNamespace), and the rules of a namespace's name and retention. */

/**
 * The states of a namespace (Temporal's): `Registered` from its registration; `Deleted` once
 * DeleteNamespace was called, while its runs and other data are being removed (calls inside it
 * are refused with NamespaceNotFound meanwhile), after which it is gone and its name free again.
 */
export const NAMESPACE_STATES = ['Registered', 'Deleted'] as const;
/** One of {@link NAMESPACE_STATES}. */
export type NamespaceState = (typeof NAMESPACE_STATES)[number];

/**
 * The name a permission uses to mean every namespace (`system:admin`), so no namespace may take it.
 */
export const RESERVED_NAMESPACE_NAME = 'system';

/** How long closed runs are kept when a namespace is registered without a retention, ms: 3 days, Temporal's default. */
export const DEFAULT_RETENTION_MS = 3 * 86_400_000;

/** Shortest retention a namespace accepts, ms: 1 day, Temporal's minimum. */
export const MIN_RETENTION_MS = 86_400_000;

/** Longest description of a namespace, characters. */
export const MAX_NAMESPACE_DESCRIPTION_LENGTH = 1000;

const NAME_CHARACTERS = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Checks a name for a new namespace: 1 to 200 characters, letters, digits, `.`, `_` and `-`,
 * starting with a letter or digit, and not `system`.
 * @throws ValidationError naming `field`, the rule and the value.
 */
export function validateNamespaceName(name: unknown, field = 'namespace'): string {
  if (typeof name !== 'string' || name.length === 0) throw new ValidationError(field, 'must be a non-empty string', name);
  if (name.length > MAX_ID_LENGTH) throw new ValidationError(field, `must be at most ${MAX_ID_LENGTH} characters`, name);
  if (!NAME_CHARACTERS.test(name)) {
    throw new ValidationError(field, 'must start with a letter or digit and hold only letters, digits, ".", "_" and "-"', name);
  }
  if (name === RESERVED_NAMESPACE_NAME) {
    throw new ValidationError(field, `must not be "${RESERVED_NAMESPACE_NAME}" (permissions use it to mean every namespace)`, name);
  }
  return name;
}

/**
 * Checks a retention period in ms: a whole number from 1 day to 100 years.
 * @throws ValidationError naming `field`, the rule and the value.
 */
export function validateRetentionMs(ms: unknown, field = 'workflowExecutionRetentionPeriodMs', shown: unknown = ms): number {
  if (typeof ms !== 'number' || !Number.isInteger(ms)) throw new ValidationError(field, 'must be a whole number of milliseconds', shown);
  if (ms < MIN_RETENTION_MS) throw new ValidationError(field, 'must be at least 1 day', shown);
  if (ms > MAX_DURATION_MS) throw new ValidationError(field, MAX_DURATION_RULE, shown);
  return ms;
}

/** Registers a namespace. */
export interface RegisterNamespaceRequest {
  /** The name; see {@link validateNamespaceName}. */
  namespace: string;
  /** At most 1000 characters. @default "" */
  description?: string | undefined;
  /** Who to ask about the namespace. */
  ownerEmail?: string | undefined;
  /** How long a closed run is kept before it is deleted with its history, ms (1 day to 100 years). @default 3 days */
  workflowExecutionRetentionPeriodMs?: number | undefined;
}

/** Names one namespace. */
export interface DescribeNamespaceRequest {
  namespace: string;
}

/** A registered namespace. Times are ISO-8601. */
export interface NamespaceDescription {
  name: string;
  state: NamespaceState;
  description: string;
  ownerEmail?: string | undefined;
  /** How long a closed run is kept, ms. */
  workflowExecutionRetentionPeriodMs: number;
  createTime: string;
  updateTime: string;
}

/** Lists the registered namespaces, in name order. */
export interface ListNamespacesRequest {
  /** 1 to 1000. @default 100 */
  pageSize?: number | undefined;
  /** From the previous page's answer. */
  nextPageToken?: string | undefined;
}

/** A page of namespaces: those the caller may read, with authentication on. */
export interface ListNamespacesResponse {
  namespaces: NamespaceDescription[];
  /** Present when more namespaces follow. */
  nextPageToken?: string | undefined;
}

/**
 * Deletes a namespace (Temporal's DeleteNamespace): it turns `Deleted` at once, every call inside it
 * is refused with NamespaceNotFound, and its runs (running ones too, without a close event), their
 * histories, tasks, timers, schedules, search attributes and pollers are deleted in the background.
 * `default` cannot be deleted.
 */
export interface DeleteNamespaceRequest {
  namespace: string;
}

/** The answer to a delete. */
export interface DeleteNamespaceResponse {
  /** The namespace marked deleted (Temporal's `deletedNamespace`; steadfast keeps its name). */
  deletedNamespace: string;
}

/** Changes a namespace's description, owner or retention; a field left out keeps its value. */
export interface UpdateNamespaceRequest {
  namespace: string;
  description?: string | undefined;
  ownerEmail?: string | undefined;
  /** A new retention, ms (1 day to 100 years); it applies to runs already closed too. */
  workflowExecutionRetentionPeriodMs?: number | undefined;
}
