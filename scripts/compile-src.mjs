// Compiles src/ into `outDir` (one JavaScript file per source file, the layout of dist/, whose
// relative paths to package.json, src/ui and the migrations it keeps), with esbuild: about a
// second, where tsc takes half a minute. The test runner points the CLI at it, so the hundreds of
// `steadfast` processes the tests spawn start from JavaScript instead of compiling TypeScript
// through tsx each time; the code is the same source, built as `npm run build` builds it.
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

function sources(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Every import stays an import: relative ones of the `.js` file compiled beside it, packages as they are. */
const keepImports = {
  name: 'keep-imports',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      return { path: /^\.\.?\//.test(args.path) ? args.path.replace(/\.tsx?$/, '.js') : args.path, external: true };
    });
  },
};

export async function compileSrc(root, outDir) {
  rmSync(outDir, { recursive: true, force: true });
  await build({
    entryPoints: sources(join(root, 'src')), outdir: outDir, outbase: join(root, 'src'), bundle: true, platform: 'node',
    format: 'esm', target: 'node20', plugins: [keepImports], logLevel: 'warning', jsx: 'automatic',
  });
}
