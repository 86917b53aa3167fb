import type { Duration } from '../retry/duration.ts';
import { ValidationError } from '../errors/index.ts';
import { optionalDuration, optionalInt, optionalString, requireString } from '../common/validate.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { MAX_ID_LENGTH, MAX_NAME_LENGTH } from '../protocol/limits.ts';
import {
  MAX_NAMESPACE_DESCRIPTION_LENGTH, validateNamespaceName, validateRetentionMs, type NamespaceDescription,
} from '../protocol/namespaces.ts';
import type { WorkflowService } from '../protocol/index.ts';
import { DEFAULT_NAMESPACE } from '../common/ids.ts';

/** What {@link NamespaceClient.update} may change; a field left out keeps its value. */
export interface NamespaceUpdateOptions {
  /**
   * How long a closed run is kept before it is deleted with its history: `"30 days"`, `"2w"` or
   * ms, from 1 day to 100 years. Temporal names it `workflowExecutionRetentionPeriod`, which is
   * accepted too.
   */
  retention?: Duration;
  /** Temporal's name of `retention`; give one or the other. */
  workflowExecutionRetentionPeriod?: Duration;
  /** Free text, at most 1000 characters. */
  description?: string;
  /** Who to ask about the namespace. */
  ownerEmail?: string;
}

/** Options of {@link NamespaceClient.create}. */
export interface NamespaceCreateOptions extends NamespaceUpdateOptions {
  /** 1 to 200 characters: letters, digits, `.`, `_` and `-`, starting with a letter or digit; not `system`. */
  name: string;
}

const UPDATE_KEYS = optionKeys<NamespaceUpdateOptions>({ retention: true, workflowExecutionRetentionPeriod: true, description: true, ownerEmail: true });
const CREATE_KEYS = optionKeys<NamespaceCreateOptions>({
  name: true, retention: true, workflowExecutionRetentionPeriod: true, description: true, ownerEmail: true,
});

const LIST_KEYS = optionKeys<{ pageSize?: number }>({ pageSize: true });

/** The wire fields of create and update options, checked. */
function toWire(kind: string, o: NamespaceUpdateOptions, keys: readonly string[]) {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new ValidationError(`${kind} options`, 'must be an object', o);
  refuseUnknownKeys(kind, o, keys);
  if (o.retention !== undefined && o.workflowExecutionRetentionPeriod !== undefined) {
    throw new ValidationError('retention', 'must not be given with workflowExecutionRetentionPeriod (they are one option)', o.retention);
  }
  const field = o.retention !== undefined ? 'retention' : 'workflowExecutionRetentionPeriod';
  const given = o.retention ?? o.workflowExecutionRetentionPeriod;
  const ms = optionalDuration(field, given);
  const description = o.description === undefined ? undefined : o.description;
  if (description !== undefined && (typeof description !== 'string' || description.length > MAX_NAMESPACE_DESCRIPTION_LENGTH)) {
    throw new ValidationError('description', `must be a string of at most ${MAX_NAMESPACE_DESCRIPTION_LENGTH} characters`, description);
  }
  const ownerEmail = optionalString('ownerEmail', o.ownerEmail, MAX_NAME_LENGTH);
  return {
    ...(ms !== undefined ? { workflowExecutionRetentionPeriodMs: validateRetentionMs(ms, field, given) } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(ownerEmail !== undefined ? { ownerEmail } : {}),
  };
}

/**
 * Registers, describes, lists, changes and deletes namespaces (`client.namespace`). Every other
 * call names a registered namespace; `default` always exists. With authentication on, create,
 * update and delete need `system:admin`, describe needs the reader role on the namespace, and
 * list answers the namespaces the caller may read.
 */
export class NamespaceClient {
  /** @internal */
  constructor(private readonly service: WorkflowService, readonly name: string) {}

  /**
   * Registers a namespace: `create({ name: 'orders', retention: '30 days' })`.
   * @throws NamespaceAlreadyExistsError when the name is registered already; ValidationError for a bad name or option.
   */
  create(options: NamespaceCreateOptions): Promise<NamespaceDescription> {
    const wire = toWire('namespace create', options, CREATE_KEYS);
    const namespace = validateNamespaceName(options.name, 'name');
    return this.service.registerNamespace({ namespace, ...wire });
  }

  /**
   * A registered namespace: state, description, owner, retention, times.
   * @param name @default the client's namespace
   * @throws NamespaceNotFoundError when it is not registered.
   */
  describe(name: string = this.name): Promise<NamespaceDescription> {
    return this.service.describeNamespace({ namespace: requireString('name', name, MAX_ID_LENGTH) });
  }

  /** Every registered namespace (that the caller may read), in name order, a page at a time. */
  async *list(options: { pageSize?: number } = {}): AsyncIterable<NamespaceDescription> {
    refuseUnknownKeys('namespace list', options, LIST_KEYS);
    const pageSize = optionalInt('pageSize', options.pageSize, 1, 1000);
    let nextPageToken: string | undefined;
    do {
      const page = await this.service.listNamespaces({
        ...(pageSize !== undefined ? { pageSize } : {}), ...(nextPageToken !== undefined ? { nextPageToken } : {}),
      });
      yield* page.namespaces;
      nextPageToken = page.nextPageToken;
    } while (nextPageToken !== undefined);
  }

  /**
   * Changes a namespace's retention, description or owner: `update('orders', { retention: '7 days' })`.
   * A new retention applies to runs already closed too.
   * @throws NamespaceNotFoundError when it is not registered.
   */
  update(name: string, options: NamespaceUpdateOptions): Promise<NamespaceDescription> {
    const namespace = requireString('name', name, MAX_ID_LENGTH);
    return this.service.updateNamespace({ namespace, ...toWire('namespace update', options, UPDATE_KEYS) });
  }

  /**
   * Deletes a namespace (Temporal's DeleteNamespace): it is `Deleted` at once and every call inside
   * it, on every server of the store, is refused with NamespaceNotFoundError; its runs (running
   * ones too, without a close event), histories, schedules and search attributes are deleted in
   * the background, after which the name may be registered again.
   * @throws ValidationError for `default`, which cannot be deleted; NamespaceNotFoundError when it is not registered.
   */
  async delete(name: string): Promise<void> {
    const namespace = requireString('name', name, MAX_ID_LENGTH);
    if (namespace === DEFAULT_NAMESPACE) {
      throw new ValidationError('name', `must not be "${DEFAULT_NAMESPACE}": the default namespace cannot be deleted`, namespace);
    }
    await this.service.deleteNamespace({ namespace });
  }
}
