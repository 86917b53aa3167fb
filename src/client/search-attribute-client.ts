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

  /** The namespace's registered attributes (by name) and the built-in ones. */
  list(): Promise<ListSearchAttributesResponse> {
    return this.service.listSearchAttributes({ namespace: this.namespace });
  }
}
