/* Workflow bundles made ahead of time (Temporal's bundleWorkflowCode and WorkerOptions.workflowBundle). */
import { readFile } from 'node:fs/promises';
import { optionalArray, requireString } from '../common/validate.ts';
import { ValidationError } from '../errors/index.ts';
import { bundleOf, bundleWorkflows, WorkflowBundleError, type WorkflowBundle } from './bundler.ts';

/** Options of {@link bundleWorkflowCode}, as Temporal names them. */
export interface BundleOptions {
  /** Module exporting the workflow functions. */
  workflowsPath: string;
  /** Modules exporting `interceptors` (WorkerOptions.interceptors.workflowModules), bundled in. */
  workflowInterceptorModules?: string[];
}

/** A bundle made by {@link bundleWorkflowCode}, or the file it was written to: `WorkerOptions.workflowBundle`. */
export type WorkflowBundleOption = { code: string } | { codePath: string };

const HEADER = '// steadfast workflow bundle 1 ';
const MAP = '//# sourceMappingURL=data:application/json;base64,';

/**
 * Bundles a workflows module ahead of time, as Temporal's `bundleWorkflowCode`: the answer's
 * `code` (the module, its source map and where it came from, in one string) can be written to a
 * file and given to `Worker.create({ workflowBundle: { codePath } })`, or passed as
 * `{ workflowBundle: { code } }`, so a worker starts without bundling. The bundle holds the
 * workflow code only: steadfast's workflow runtime comes from the worker's own package.
 * @throws ValidationError naming the option; WorkflowBundleError naming a banned import.
 */
export async function bundleWorkflowCode(options: BundleOptions): Promise<{ code: string }> {
  if (typeof options !== 'object' || options === null) throw new ValidationError('options', 'must be an object with workflowsPath', options);
  const workflowsPath = requireString('workflowsPath', options.workflowsPath, 4096);
  const modules = optionalArray('workflowInterceptorModules', options.workflowInterceptorModules)
    .map((m, i) => requireString(`workflowInterceptorModules[${i}]`, m, 4096));
  const bundle = await bundleWorkflows(workflowsPath, modules);
  const header = JSON.stringify({ workflowsPath: bundle.workflowsPath });
  return { code: `${HEADER}${header}\n${bundle.code}\n${MAP}${Buffer.from(bundle.sourceMap, 'utf8').toString('base64')}\n` };
}

/**
 * The bundle `WorkerOptions.workflowBundle` names: its code as given, or read from `codePath`.
 * @throws ValidationError naming `workflowBundle` when it is not a bundle bundleWorkflowCode made.
 */
export async function loadWorkflowBundle(option: WorkflowBundleOption): Promise<WorkflowBundle> {
  let text: string;
  if ('codePath' in option) {
    const path = requireString('workflowBundle.codePath', option.codePath, 4096);
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      throw new ValidationError('workflowBundle.codePath', `must name a readable file (${(err as Error).message})`, path);
    }
  } else {
    text = requireString('workflowBundle.code', option.code, Number.MAX_SAFE_INTEGER);
  }
  const field = 'codePath' in option ? 'workflowBundle.codePath' : 'workflowBundle.code';
  const firstLine = text.indexOf('\n');
  const mapAt = text.lastIndexOf(`\n${MAP}`);
  if (!text.startsWith(HEADER) || firstLine < 0 || mapAt < firstLine) {
    throw new ValidationError(field, 'must be a bundle made by bundleWorkflowCode (its first line names the workflows module)', `${text.slice(0, 60)}…`);
  }
  let workflowsPath: string;
  try {
    workflowsPath = requireString('workflowsPath', (JSON.parse(text.slice(HEADER.length, firstLine)) as { workflowsPath?: unknown }).workflowsPath, 4096);
  } catch {
    throw new ValidationError(field, 'must be a bundle made by bundleWorkflowCode (its first line is not readable)', text.slice(0, firstLine));
  }
  const code = text.slice(firstLine + 1, mapAt);
  const map = Buffer.from(text.slice(mapAt + 1 + MAP.length).trim(), 'base64').toString('utf8');
  try {
    JSON.parse(map);
  } catch {
    throw new WorkflowBundleError(`the workflow bundle of ${workflowsPath} has no readable source map`, workflowsPath);
  }
  return bundleOf(workflowsPath, code, map);
}
