import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One versioned schema change, read from `src/store/sql/<dialect>/NNNN-name.sql`. */
interface Migration {
  version: number;
  name: string;
  sql: string;
}

function sqlDir(dialect: 'sqlite' | 'postgres'): string {
  // Beside this module in the source tree; a built copy in dist/ falls back to the shipped src/.
  const candidates = [new URL(`./sql/${dialect}/`, import.meta.url), new URL(`../../src/store/sql/${dialect}/`, import.meta.url)];
  for (const url of candidates) {
    const path = fileURLToPath(url);
    if (existsSync(path)) return path;
  }
  throw new Error(`migrations for ${dialect} not found beside ${fileURLToPath(import.meta.url)}`);
}

/** The migrations of a dialect in version order. File names must be `NNNN-name.sql`, numbered from 1 with no gaps. */
export function loadMigrations(dialect: 'sqlite' | 'postgres'): Migration[] {
  const dir = sqlDir(dialect);
  const files = readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();
  return files.map((file, index) => {
    const m = /^(\d{4})-([a-z0-9-]+)\.sql$/.exec(file);
    if (!m) throw new Error(`migration file ${dialect}/${file} must be named NNNN-name.sql`);
    const version = Number(m[1]);
    if (version !== index + 1) throw new Error(`migration ${dialect}/${file} should be number ${index + 1}`);
    return { version, name: m[2]!, sql: readFileSync(`${dir}${file}`, 'utf8') };
  });
}
