import type { WorkflowService } from '../protocol/index.ts';
import type { ListSearchAttributesResponse, SearchAttributeTypeName } from '../protocol/index.ts';
import { ValidationError } from '../errors/index.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { validateNewAttribute } from '../visibility/attributes.ts';

const DEFINITION_KEYS = optionKeys<{ name: string; type: SearchAttributeTypeName }>({ name: true, type: true });

/** The custom search attributes of the client's namespace (`client.searchAttributes`). */
export class SearchAttributeClient {
  /** @internal */
  constructor(private readonly service: WorkflowService, readonly namespace: string) {}

  /**
   * Registers a custom search attribute: `create({ name: 'CustomerId', type: 'Keyword' })`.
   * @throws ValidationError when the name or type is invalid, or the name is registered already.
   */
  async create(definition: { name: string; type: SearchAttributeTypeName }): Promise<void> {
    if (typeof definition !== 'object' || definition === null) {
      throw new ValidationError('search attribute', 'must be an object { name, type }', definition);
    }
    refuseUnknownKeys('search attribute', definition, DEFINITION_KEYS);
    validateNewAttribute(definition);
    await this.service.createSearchAttribute({ namespace: this.namespace, name: definition.name, type: definition.type });
  }

  /**
   * Removes custom search attributes: their values leave the runs' visibility records.
   * @throws ServiceError NotFound when a name is not registered (nothing is removed then).
   */
  async remove(names: string[]): Promise<void> {
    if (!Array.isArray(names) || names.length === 0 || names.some((n) => typeof n !== 'string' || n === '')) {
      throw new ValidationError('names', 'must be a non-empty array of attribute names', names);
    }
    await this.service.removeSearchAttributes({ namespace: this.namespace, names });
  }

  /** The namespace's registered attributes (by name) and the built-in ones. */
  list(): Promise<ListSearchAttributesResponse> {
    return this.service.listSearchAttributes({ namespace: this.namespace });
  }
}
