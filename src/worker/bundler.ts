import { isBuiltin } from 'node:module';
import { dirname, extname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import vm from 'node:vm';
import { build, type Plugin } from 'esbuild';
import { ValidationError } from '../retry/errors.ts';
import { SteadfastError, brandClass } from '../retry/errors.ts';

/** A bundled workflows module: the code and its compiled script, evaluated once per run. */
export interface WorkflowBundle {
  workflowsPath: string;
  code: string;
  /** Compiled once; `runInContext` in each run's fresh context. */
  script: vm.Script;
}

/** Bundling the workflows module failed: a banned import, a syntax error, a missing file. */
export class WorkflowBundleError extends SteadfastError {
  constructor(message: string, readonly workflowsPath: string) {
    super(message);
  }
}
brandClass(WorkflowBundleError, 'WorkflowBundleError');

// Runtime files are located next to this one: src/*.ts in the repo, dist/*.js once built.
const EXT = extname(fileURLToPath(import.meta.url));
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const srcFile = (rel: string) => resolve(SRC, `${rel}${EXT}`);

/** steadfast entry points workflow code may import; all map into this package's own copy. */
const SANDBOX_ENTRIES: Record<string, string> = {
  'steadfast/workflow': srcFile('workflow/index'),
  steadfast: srcFile('index'),
  'steadfast/retry': srcFile('retry/index'),
};

const IO_BUILTINS = new Set([
  'fs', 'fs/promises', 'net', 'http', 'https', 'http2', 'child_process', 'dgram', 'dns', 'dns/promises', 'tls',
  'cluster', 'worker_threads', 'os', 'process', 'readline', 'repl', 'inspector', 'v8', 'vm', 'async_hooks', 'perf_hooks',
]);

/**
 * Keeps workflow code inside the sandbox's rules at bundle time, the way Temporal's bundler
 * bans modules: Node built-ins (which do I/O or are otherwise unavailable in the sandbox) and
 * steadfast's outside-the-sandbox entry points fail the build, naming the import and the file.
 */
function sandboxPlugin(): Plugin {
  return {
    name: 'steadfast-sandbox',
    setup(b) {
      b.onResolve({ filter: /^steadfast(\/.*)?$/ }, (args) => {
        const target = SANDBOX_ENTRIES[args.path];
        if (target) return { path: target };
        return {
          errors: [{
            text: `workflow code may not import '${args.path}' (imported from ${args.importer}): it runs outside the ` +
              `workflow sandbox; only ${Object.keys(SANDBOX_ENTRIES).join(', ')} are available there ` +
              `(use 'import type' for activity modules)`,
          }],
        };
      });
      b.onResolve({ filter: /^(node:)?[a-z_/0-9]+$/ }, (args) => {
        if (!isBuiltin(args.path)) return undefined;
        const bare = args.path.replace(/^node:/, '');
        const why = IO_BUILTINS.has(bare) ? 'it does I/O, which is not deterministic on replay'
          : 'Node built-ins are not available in the workflow sandbox';
        return {
          errors: [{
            text: `workflow code may not import the Node built-in '${args.path}' (imported from ${args.importer}): ${why}; ` +
              'move this code into an activity',
          }],
        };
      });
    },
  };
}

const cache = new Map<string, Promise<WorkflowBundle>>();

/**
 * Bundles `workflowsPath` with esbuild into one script for the sandbox, with the workflow
 * runtime ahead of it. `steadfast/workflow` and relative imports of this package's
 * `src/workflow/index.ts` resolve to one copy of the runtime. Cached per path for the life of
 * the process.
 * @throws WorkflowBundleError naming the banned import and the importing file.
 */
export function bundleWorkflows(workflowsPath: string): Promise<WorkflowBundle> {
  const path = resolve(workflowsPath);
  let entry = cache.get(path);
  if (!entry) {
    entry = doBundle(path);
    cache.set(path, entry);
    entry.catch(() => cache.delete(path));
  }
  return entry;
}

async function doBundle(path: string): Promise<WorkflowBundle> {
  if (!existsSync(path)) throw new ValidationError('workflowsPath', 'must name an existing file', path);
  const contents = [
    `import ${JSON.stringify(srcFile('workflow/sandbox-entry'))};`,
    `import * as workflows from ${JSON.stringify(path)};`,
    `import { registerWorkflows } from ${JSON.stringify(srcFile('workflow/sandbox-entry'))};`,
    'registerWorkflows(workflows);',
  ].join('\n');
  let code: string;
  try {
    const result = await build({
      stdin: { contents, resolveDir: dirname(path), loader: 'ts', sourcefile: 'steadfast-workflow-entry.ts' },
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      conditions: ['import', 'default'],
      target: 'es2022',
      keepNames: true,
      logLevel: 'silent',
      plugins: [sandboxPlugin()],
    });
    code = result.outputFiles[0]!.text;
  } catch (err) {
    const errors = (err as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors;
    const text = errors?.length
      ? errors.map((e) => (e.location ? `${e.text} [${e.location.file}:${e.location.line}]` : e.text)).join('\n')
      : (err as Error).message;
    throw new WorkflowBundleError(`bundling workflows from ${path} failed:\n${text}`, path);
  }
  return { workflowsPath: path, code, script: new vm.Script(code, { filename: `${path} (workflow bundle)` }) };
}
