import { isBuiltin } from 'node:module';
import { dirname, extname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import vm from 'node:vm';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { ValidationError } from '../retry/errors.ts';
import { SteadfastError, brandClass } from '../retry/errors.ts';

/**
 * A bundled workflows module, in two compiled scripts: the workflow runtime, evaluated once per
 * sandbox realm, and the workflows module as a factory function, evaluated once per realm and
 * called once per run (so each run has its own module state).
 */
export interface WorkflowBundle {
  workflowsPath: string;
  /** The workflows module's code (a CommonJS-style function body; steadfast imports stay `require` calls). */
  code: string;
  /** The runtime's code (steadfast/workflow and what it needs), the same for every workflows module. */
  runtimeCode: string;
  /** Evaluates to the module factory; `runInContext` once per realm. */
  script: vm.Script;
  /** Installs the runtime in a realm; `runInContext` once per realm. */
  runtimeScript: vm.Script;
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

const ENTRY_BY_FILE = new Map(Object.entries(SANDBOX_ENTRIES).map(([name, file]) => [file, name]));

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
        if (SANDBOX_ENTRIES[args.path]) return { path: args.path, external: true };
        return {
          errors: [{
            text: `workflow code may not import '${args.path}' (imported from ${args.importer}): it runs outside the ` +
              `workflow sandbox; only ${Object.keys(SANDBOX_ENTRIES).join(', ')} are available there ` +
              `(use 'import type' for activity modules)`,
          }],
        };
      });
      // This package's own entry files imported by path are the runtime's single copy too.
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        const target = resolve(args.resolveDir, args.path);
        const name = ENTRY_BY_FILE.get(target) ?? ENTRY_BY_FILE.get(`${target}${EXT}`);
        return name ? { path: name, external: true } : undefined;
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
let runtime: Promise<{ code: string; script: vm.Script }> | undefined;

/**
 * Bundles `workflowsPath` with esbuild for the sandbox: the workflows module with its own
 * imports, while `steadfast/workflow`, `steadfast`, `steadfast/retry` (and this package's own
 * entry files imported by path) stay imports of the realm's one runtime copy. Cached per path
 * for the life of the process; the runtime is built once per process.
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

const COMMON_OPTIONS = {
  bundle: true, write: false, platform: 'neutral', mainFields: ['module', 'main'], conditions: ['import', 'default'],
  target: 'es2022', keepNames: true, logLevel: 'silent',
} satisfies BuildOptions;

function buildRuntime(): Promise<{ code: string; script: vm.Script }> {
  runtime ??= build({ ...COMMON_OPTIONS, entryPoints: [srcFile('workflow/sandbox-entry')], format: 'iife' }).then((result) => {
    const code = result.outputFiles[0]!.text;
    return { code, script: new vm.Script(code, { filename: 'steadfast workflow runtime' }) };
  });
  runtime.catch(() => {
    runtime = undefined;
  });
  return runtime;
}

async function doBundle(path: string): Promise<WorkflowBundle> {
  if (!existsSync(path)) throw new ValidationError('workflowsPath', 'must name an existing file', path);
  let code: string;
  try {
    const result = await build({ ...COMMON_OPTIONS, entryPoints: [path], format: 'cjs', plugins: [sandboxPlugin()] });
    code = result.outputFiles[0]!.text;
  } catch (err) {
    const errors = (err as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors;
    const text = errors?.length
      ? errors.map((e) => (e.location ? `${e.text} [${e.location.file}:${e.location.line}]` : e.text)).join('\n')
      : (err as Error).message;
    throw new WorkflowBundleError(`bundling workflows from ${path} failed:\n${text}`, path);
  }
  const rt = await buildRuntime();
  return {
    workflowsPath: path,
    code,
    runtimeCode: rt.code,
    script: new vm.Script(`(function (require, module, exports) {\n${code}\n})`, { filename: `${path} (workflow bundle)` }),
    runtimeScript: rt.script,
  };
}
