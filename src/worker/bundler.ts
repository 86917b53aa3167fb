import { isBuiltin } from 'node:module';
import { dirname, extname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { existsSync } from 'node:fs';
import vm from 'node:vm';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { ValidationError } from '../errors/index.ts';
import { INTERCEPTOR_MODULES } from '../workflow/activation.ts';
import { SteadfastError, brandClass } from '../errors/index.ts';
import { bundleStackMapper, type BundleStackMapper } from './source-map.ts';

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
  /** Maps stacks made in the sandbox to the workflow files' lines, leaving steadfast's own frames out. */
  stacks: BundleStackMapper;
  /** The source map of `code` (JSON), which `stacks` reads; kept so a bundle can be written out whole. */
  sourceMap: string;
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

/** esbuild namespace of the stand-ins for the entry points (below). */
const API_NAMESPACE = 'steadfast-api';

let exportNames: Promise<Record<string, string[]>> | undefined;

/** The names each sandbox entry point exports, read from the modules themselves once per process. */
function entryExports(): Promise<Record<string, string[]>> {
  exportNames ??= Promise.all(Object.entries(SANDBOX_ENTRIES).map(async ([name, file]) =>
    [name, Object.keys(await import(pathToFileURL(file).href) as object).filter((k) => k !== 'default')] as const))
    .then(Object.fromEntries);
  return exportNames;
}

/**
 * An ES module standing in for an entry point, exporting exactly its names, each read from the
 * realm's one runtime copy (`require`d, external). esbuild checks named imports against it, so a
 * name the entry point does not export fails the bundle instead of every workflow task. A
 * `require` call, not `import * as`: the bundle evaluates the stand-in once per run, and a
 * namespace import would copy every export onto a fresh object (esbuild's `__toESM`) each time.
 */
function standIn(entry: string, names: readonly string[]): string {
  return `const api = require(${JSON.stringify(entry)});
${names.map((n) => `export const ${n} = api.${n};`).join('\n')}
`;
}

const IO_BUILTINS = new Set([
  'fs', 'fs/promises', 'net', 'http', 'https', 'http2', 'child_process', 'dgram', 'dns', 'dns/promises', 'tls',
  'cluster', 'worker_threads', 'os', 'process', 'readline', 'repl', 'inspector', 'v8', 'vm', 'async_hooks', 'perf_hooks',
]);

/**
 * Keeps workflow code inside the sandbox's rules at bundle time, the way Temporal's bundler
 * bans modules: Node built-ins (which do I/O or are otherwise unavailable in the sandbox) and
 * steadfast's outside-the-sandbox entry points fail the build, naming the import and the file.
 */
function sandboxPlugin(names: Record<string, string[]>): Plugin {
  return {
    name: 'steadfast-sandbox',
    setup(b) {
      b.onResolve({ filter: /^steadfast(\/.*)?$/ }, (args) => {
        if (SANDBOX_ENTRIES[args.path]) {
          // The stand-in's own import is the real, external one.
          return args.namespace === API_NAMESPACE ? { path: args.path, external: true } : { path: args.path, namespace: API_NAMESPACE };
        }
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
        return name ? { path: name, namespace: API_NAMESPACE } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: API_NAMESPACE }, (args) => ({ contents: standIn(args.path, names[args.path] ?? []), loader: 'js' }));
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

/** An esbuild error or warning, as far as the messages below read it. */
interface BuildMessage {
  id?: string;
  text: string;
  location?: { file: string; line: number } | null;
}

/** esbuild's words for an import of a name an entry point does not export, with the entry point's public name. */
const MISSING_EXPORT = new RegExp(`^(?:No matching export in "${API_NAMESPACE}:([^"]+)" for import "([^"]+)"|`
  + `Import "([^"]+)" will always be undefined because there is no matching export in "${API_NAMESPACE}:([^"]+)")$`);

/** One line of a failed bundle: the message (an entry point's missing export in our words) and where. */
function describeMessage(e: BuildMessage): string {
  const m = MISSING_EXPORT.exec(e.text);
  const text = m ? `'${m[1] ?? m[4]}' has no export named '${m[2] ?? m[3]}': steadfast does not provide it `
    + '(README.md, "Coming from Temporal", lists what is not built)' : e.text;
  return e.location ? `${text} [${e.location.file}:${e.location.line}]` : text;
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
export function bundleWorkflows(workflowsPath: string, interceptorModules: readonly string[] = []): Promise<WorkflowBundle> {
  const path = resolve(workflowsPath);
  const modules = interceptorModules.map((m) => resolve(m));
  const key = modules.length ? JSON.stringify([path, ...modules]) : path;
  let entry = cache.get(key);
  if (!entry) {
    entry = doBundle(path, modules);
    cache.set(key, entry);
    entry.catch(() => cache.delete(key));
  }
  return entry;
}

/**
 * The entry of a bundle with interceptor modules: the workflows module's exports, and the
 * interceptor modules under INTERCEPTOR_MODULES (the realm takes them out before it looks up
 * workflow types).
 */
function entryWithInterceptors(path: string, modules: readonly string[]): NonNullable<BuildOptions['stdin']> {
  const imports = modules.map((m, i) => `import * as interceptors${i} from ${JSON.stringify(m)};`).join('\n');
  return {
    contents: `export * from ${JSON.stringify(path)};\n${imports}\nexport const ${INTERCEPTOR_MODULES} = [${modules.map((_, i) => `interceptors${i}`).join(', ')}];\n`,
    resolveDir: dirname(path), sourcefile: `${path} (with interceptors)`, loader: 'ts',
  };
}

const COMMON_OPTIONS = {
  bundle: true, write: false, platform: 'neutral', mainFields: ['module', 'main'], conditions: ['import', 'default'],
  target: 'es2022', keepNames: true, logLevel: 'silent',
} satisfies BuildOptions;

function buildRuntime(): Promise<{ code: string; script: vm.Script }> {
  // Without keepNames: nothing reads the runtime's own function names (its error classes carry
  // their names as brands), and keepNames would rename every arrow-function field of every
  // object a run makes, on every run. The workflows module keeps them: a workflow function's
  // name is its type.
  runtime ??= build({ ...COMMON_OPTIONS, keepNames: false, entryPoints: [srcFile('workflow/sandbox-entry')], format: 'iife' }).then((result) => {
    const code = result.outputFiles[0]!.text;
    return { code, script: new vm.Script(code, { filename: 'steadfast workflow runtime' }) };
  });
  runtime.catch(() => {
    runtime = undefined;
  });
  return runtime;
}

async function doBundle(path: string, modules: readonly string[]): Promise<WorkflowBundle> {
  if (!existsSync(path)) throw new ValidationError('workflowsPath', 'must name an existing file', path);
  modules.forEach((m, i) => {
    if (!existsSync(m)) throw new ValidationError(`interceptors.workflowModules[${i}]`, 'must name an existing file', m);
  });
  let code: string;
  let map: string;
  try {
    const entry = modules.length ? { stdin: entryWithInterceptors(path, modules) } : { entryPoints: [path] };
    // The output file is never written (write: false); it places the map's `sources` relative to the entry's folder.
    const result = await build({
      ...COMMON_OPTIONS, ...entry, format: 'cjs', plugins: [sandboxPlugin(await entryExports())],
      sourcemap: 'external', sourcesContent: false, outfile: `${path}.bundle.js`,
    });
    // A member of a namespace import (`wf.nope()`) that the entry point lacks is only a warning to esbuild.
    const undefinedImports = result.warnings.filter((w) => w.id === 'import-is-undefined');
    if (undefinedImports.length > 0) throw Object.assign(new Error('undefined imports'), { errors: undefinedImports });
    code = result.outputFiles.find((f) => f.path.endsWith('.js'))!.text;
    map = result.outputFiles.find((f) => f.path.endsWith('.js.map'))!.text;
  } catch (err) {
    const errors = (err as { errors?: BuildMessage[] }).errors;
    const text = errors?.length ? errors.map(describeMessage).join('\n') : (err as Error).message;
    throw new WorkflowBundleError(`bundling workflows from ${path} failed:\n${text}`, path);
  }
  return bundleOf(path, code, map);
}

/** A bundle from its parts: the workflows module's code and its source map, with this process's runtime. */
export async function bundleOf(path: string, code: string, map: string): Promise<WorkflowBundle> {
  const rt = await buildRuntime();
  const filename = `${path} (workflow bundle)`;
  return {
    workflowsPath: path,
    code,
    runtimeCode: rt.code,
    // The wrapper's first line puts the bundle's first line at the script's second.
    script: new vm.Script(`(function (require, module, exports) {\n${code}\n})`, { filename }),
    runtimeScript: rt.script,
    stacks: bundleStackMapper(map, path, filename, 1),
    sourceMap: map,
  };
}
