/** Compiles src/ into `outDir`, one JavaScript file per source file, in the layout of dist/. */
export function compileSrc(root: string, outDir: string): Promise<void>;
