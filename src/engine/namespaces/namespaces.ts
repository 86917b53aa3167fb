import { NamespaceAlreadyExistsError, NamespaceNotFoundError } from '../../common/errors.ts';
import { DEFAULT_NAMESPACE } from '../../common/ids.ts';
import type { Clock } from '../../retry/clock.ts';
import { ValidationError } from '../../errors/index.ts';
import { parseField, parseRequest } from '../../protocol/parse.ts';
import { text } from '../../protocol/fields.ts';
import { MAX_ID_LENGTH } from '../../protocol/limits.ts';
import { checkText } from '../../protocol/request-text.ts';
import {
  DEFAULT_RETENTION_MS, type DeleteNamespaceRequest, type DeleteNamespaceResponse, type DescribeNamespaceRequest, type ListNamespacesRequest,
  type ListNamespacesResponse, type NamespaceDescription, type RegisterNamespaceRequest, type UpdateNamespaceRequest,
} from '../../protocol/namespaces.ts';
import {
  deleteNamespaceRequestSchema, describeNamespaceRequestSchema, listNamespacesRequestSchema, registerNamespaceRequestSchema,
  updateNamespaceRequestSchema,
} from '../../protocol/schemas/namespaces.ts';
import { StoreConflictError } from '../../store/errors.ts';
import type { NamespaceRecord, Store } from '../../store/types.ts';

const NAMESPACE_TEXT = text(MAX_ID_LENGTH);

/** Names read per store call when the registry loads. */
const LOAD_PAGE = 1000;

/**
 * The registered namespaces, and the check every call naming a namespace passes first. Names are
 * kept in memory: a known name costs a Set lookup, no database read. A name not known here is
 * looked up in the store once (concurrent misses share the read), so a namespace another server
 * of the same database registered is found on its first use; an unknown or deleted one is
 * refused with {@link NamespaceNotFoundError}. A deleted namespace leaves every server's set
 * when the store announces it (`namespaceDeleted`, PostgreSQL's NOTIFY across servers); when
 * announcements may have been missed (`resync`) the whole set is forgotten and names are looked
 * up again on their next use.
 */
export class NamespaceRegistry {
  readonly #known = new Set<string>();
  readonly #lookups = new Map<string, Promise<void>>();
  /** Bumped whenever names are forgotten: a lookup that began before must not add its name back. */
  #generation = 0;

  /** @param deleted called after a namespace was marked deleted here, to start removing its data. */
  constructor(private readonly store: Store, private readonly clock: Clock, private readonly deleted: (name: string) => void = () => {}) {}

  /** Forgets a namespace the store announced deleted, or (no name) every name. */
  forget(name?: string): void {
    this.#generation++;
    if (name === undefined) this.#known.clear();
    else this.#known.delete(name);
  }

  /** Reads every registered name from the store. */
  async load(): Promise<void> {
    let after: string | undefined;
    for (;;) {
      const page = await this.store.listNamespaces(after, LOAD_PAGE);
      for (const ns of page) if (ns.state === 'Registered') this.#known.add(ns.name);
      if (page.length < LOAD_PAGE) return;
      after = page[page.length - 1]!.name;
    }
  }

  /**
   * Passes when the request's `namespace` (`"default"` when left out) is registered: undefined
   * at once for a known name, else a promise of the store's answer. A `namespace` that is not a
   * string is left to the request's own validation.
   * @throws NamespaceNotFoundError (through the promise) for a name that is not registered.
   */
  check(req: unknown): Promise<void> | undefined {
    const given = typeof req === 'object' && req !== null ? (req as { namespace?: unknown }).namespace : undefined;
    const name = given === undefined || given === null ? DEFAULT_NAMESPACE : given;
    if (typeof name !== 'string' || this.#known.has(name)) return undefined;
    // The request's own rules first: a name that breaks them is InvalidArgument, and is never sent to the store.
    checkText('namespace', parseField(NAMESPACE_TEXT, 'namespace', name));
    let lookup = this.#lookups.get(name);
    if (!lookup) {
      const generation = this.#generation;
      lookup = this.store.getNamespace(name).then((found) => {
        if (!found || found.state !== 'Registered') throw new NamespaceNotFoundError(name);
        if (generation === this.#generation) this.#known.add(name);
      }).finally(() => this.#lookups.delete(name));
      this.#lookups.set(name, lookup);
    }
    return lookup;
  }

  /** RegisterNamespace: the new namespace's description. */
  async register(input: RegisterNamespaceRequest): Promise<NamespaceDescription> {
    const req = parseRequest(registerNamespaceRequestSchema, input);
    // A name whose deleted namespace is still being removed is freed first, as Temporal frees a
    // deleted namespace's name at once (it renames the deleted one).
    if ((await this.store.getNamespace(req.namespace))?.state === 'Deleted') await purgeDeletedNamespace(this.store, req.namespace);
    const now = this.clock.now();
    const rec: NamespaceRecord = {
      name: req.namespace, description: req.description ?? '', retentionMs: req.workflowExecutionRetentionPeriodMs ?? DEFAULT_RETENTION_MS,
      state: 'Registered', createTime: now, updateTime: now, ...(req.ownerEmail !== undefined ? { ownerEmail: req.ownerEmail } : {}),
    };
    try {
      await this.store.createNamespace(rec);
    } catch (err) {
      if (err instanceof StoreConflictError && err.reason === 'namespaceExists') throw new NamespaceAlreadyExistsError(rec.name);
      throw err;
    }
    this.#known.add(rec.name);
    return describeNamespace(rec);
  }

  /** DescribeNamespace. */
  async describe(input: DescribeNamespaceRequest): Promise<NamespaceDescription> {
    const { namespace } = parseRequest(describeNamespaceRequestSchema, input);
    const rec = await this.store.getNamespace(namespace);
    if (!rec) throw new NamespaceNotFoundError(namespace);
    if (rec.state === 'Registered') this.#known.add(namespace);
    return describeNamespace(rec);
  }

  /**
   * DeleteNamespace: marks it `Deleted` (every server refuses it from then on) and starts removing
   * its data in the background. `default` cannot be deleted.
   */
  async delete(input: DeleteNamespaceRequest): Promise<DeleteNamespaceResponse> {
    const { namespace } = parseRequest(deleteNamespaceRequestSchema, input);
    if (namespace === DEFAULT_NAMESPACE) {
      throw new ValidationError('namespace', `must not be "${DEFAULT_NAMESPACE}": the default namespace cannot be deleted`, namespace);
    }
    const marked = await this.store.markNamespaceDeleted(namespace, this.clock.now());
    if (!marked) throw new NamespaceNotFoundError(namespace);
    this.forget(namespace);
    this.deleted(namespace);
    return { deletedNamespace: namespace };
  }

  /** ListNamespaces: a page in name order; the token is the last name of the page. */
  async list(input: ListNamespacesRequest): Promise<ListNamespacesResponse> {
    const req = parseRequest(listNamespacesRequestSchema, input);
    let after: string | undefined;
    if (req.nextPageToken !== undefined) {
      after = Buffer.from(req.nextPageToken, 'base64url').toString('utf8');
      if (after.length === 0) throw new ValidationError('nextPageToken', 'must be a token from an earlier page', req.nextPageToken);
    }
    const rows = await this.store.listNamespaces(after, req.pageSize + 1);
    const page = rows.slice(0, req.pageSize);
    const res: ListNamespacesResponse = { namespaces: page.map(describeNamespace) };
    if (rows.length > req.pageSize) res.nextPageToken = Buffer.from(page[page.length - 1]!.name, 'utf8').toString('base64url');
    return res;
  }

  /** UpdateNamespace: the namespace as it is after the change. */
  async update(input: UpdateNamespaceRequest): Promise<NamespaceDescription> {
    const req = parseRequest(updateNamespaceRequestSchema, input);
    if ((await this.store.getNamespace(req.namespace))?.state === 'Deleted') throw new NamespaceNotFoundError(req.namespace);
    const rec = await this.store.updateNamespace(req.namespace, {
      ...(req.description !== undefined ? { description: req.description } : {}),
      ...(req.ownerEmail !== undefined ? { ownerEmail: req.ownerEmail } : {}),
      ...(req.workflowExecutionRetentionPeriodMs !== undefined ? { retentionMs: req.workflowExecutionRetentionPeriodMs } : {}),
    }, this.clock.now());
    if (!rec) throw new NamespaceNotFoundError(req.namespace);
    return describeNamespace(rec);
  }
}

/** Runs of a deleted namespace removed per store transaction (bounds each transaction's size and lock time). */
export const PURGE_BATCH = 500;

/**
 * Removes a deleted namespace's data, a batch per transaction, until its row is gone.
 * @returns how many runs were removed.
 */
export async function purgeDeletedNamespace(store: Store, name: string, signal?: AbortSignal): Promise<number> {
  let removed = 0;
  for (;;) {
    if (signal?.aborted) return removed;
    const batch = await store.purgeNamespace(name, PURGE_BATCH);
    removed += batch.runIds.length;
    if (batch.done || batch.runIds.length === 0) return removed;
  }
}

/** A stored namespace as the API describes it. */
export function describeNamespace(r: NamespaceRecord): NamespaceDescription {
  return {
    name: r.name, state: r.state, description: r.description, ...(r.ownerEmail !== undefined ? { ownerEmail: r.ownerEmail } : {}),
    workflowExecutionRetentionPeriodMs: r.retentionMs, createTime: new Date(r.createTime).toISOString(),
    updateTime: new Date(r.updateTime).toISOString(),
  };
}
