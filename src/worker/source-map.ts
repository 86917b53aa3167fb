import { SourceMap, type SourceMapPayload } from 'node:module';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FailureInfo } from '../common/failure.ts';

/**
 * Rewrites stack traces made inside the workflow sandbox into the workflow files' own line
 * numbers. A frame in the workflows bundle is mapped through the bundle's source map to the
 * file and line it was written at (`at myWorkflow (/abs/path/workflows.ts:27:11)`); frames of
 * steadfast's runtime, of the sandbox's dispatch and of esbuild's glue code are left out, so a
 * stack lists the workflow code's own frames. Lines that are not frames (the error's message)
 * are kept as they are.
 */
export class BundleStackMapper {
  readonly #map: SourceMap;
  readonly #needle: string;
  readonly #lineOffset: number;
  readonly #sourceDir: string;
  readonly #sources = new Map<string, string>();

  /**
   * @param payload the bundle's source map (version 3), as esbuild wrote it.
   * @param scriptName the file name the bundle's script was compiled with: frames in it are mapped.
   * @param lineOffset lines of the script before the bundle's first line (a wrapper's).
   * @param sourceDir the folder the map's `sources` are relative to.
   */
  constructor(payload: SourceMapPayload, scriptName: string, lineOffset: number, sourceDir: string) {
    this.#map = new SourceMap(payload);
    this.#needle = `${scriptName}:`;
    this.#lineOffset = lineOffset;
    this.#sourceDir = sourceDir;
  }

  /** `stack` with every frame in the bundle mapped and every other frame left out. */
  mapStack(stack: string): string {
    const out: string[] = [];
    for (const line of stack.split('\n')) {
      if (!/^\s+at /.test(line)) {
        out.push(line);
        continue;
      }
      const mapped = this.#mapFrame(line);
      if (mapped !== undefined) out.push(mapped);
    }
    return out.join('\n');
  }

  /** `failure` with its stack and its causes' stacks mapped. */
  mapFailure(failure: FailureInfo): FailureInfo {
    const mapped: FailureInfo = { ...failure };
    if (typeof failure.stack === 'string') mapped.stack = this.mapStack(failure.stack);
    if (failure.cause) mapped.cause = this.mapFailure(failure.cause);
    return mapped;
  }

  #mapFrame(line: string): string | undefined {
    const at = line.lastIndexOf(this.#needle);
    if (at < 0) return undefined;
    const pos = /^(\d+):(\d+)\)?$/.exec(line.slice(at + this.#needle.length));
    if (!pos) return undefined;
    const generatedLine = Number(pos[1]) - 1 - this.#lineOffset;
    const generatedColumn = Number(pos[2]) - 1;
    if (generatedLine < 0) return undefined;
    const entry = this.#map.findEntry(generatedLine, generatedColumn) as Partial<{
      originalSource: string; originalLine: number; originalColumn: number;
    }>;
    if (!entry.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined) return undefined;
    const where = `${this.#source(entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
    const head = line.slice(0, at);
    // `    at name (file:l:c)` keeps its name; `    at file:l:c` is only a place.
    const named = /^(\s+at .*) \($/.exec(head);
    if (named) return `${named[1]} (${where})`;
    return `${head.replace(/\S*$/, '')}${where}`;
  }

  #source(source: string): string {
    let path = this.#sources.get(source);
    if (path === undefined) {
      path = source.startsWith('file://') ? fileURLToPath(source) : isAbsolute(source) ? source : resolve(this.#sourceDir, source);
      this.#sources.set(source, path);
    }
    return path;
  }
}

/** A mapper for a bundle written next to `entryPath` (esbuild's `sources` are relative to the output's folder). */
export function bundleStackMapper(mapText: string, entryPath: string, scriptName: string, lineOffset: number): BundleStackMapper {
  return new BundleStackMapper(JSON.parse(mapText) as SourceMapPayload, scriptName, lineOffset, dirname(entryPath));
}
