/** Any workflow function: plain async code taking JSON-serializable arguments. */
export type Workflow = (...args: any[]) => Promise<unknown>;

/** The arguments a workflow takes. */
export type WorkflowArgs<W extends Workflow> = Parameters<W>;

/** What a workflow's result resolves to. */
export type WorkflowResult<W extends Workflow> = Awaited<ReturnType<W>>;

/** Any activity function. */
export type ActivityFunction = (...args: any[]) => Promise<unknown> | unknown;
