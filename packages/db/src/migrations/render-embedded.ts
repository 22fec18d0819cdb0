import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The source of embedded.ts for the .sql files in `dir` (used by the embed script and its test). */
export function renderEmbeddedMigrations(dir: string): string {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const entries = files.map(
    (file) =>
      `  { file: ${JSON.stringify(file)}, sql: ${JSON.stringify(readFileSync(join(dir, file), 'utf8'))} },`,
  );
  return [
    '// Generated from the .sql files beside this file by `npm run migrations:embed -w @iot/db`; edit those, not this.',
    'export const embeddedMigrationFiles: readonly { file: string; sql: string }[] = [',
    ...entries,
    '];',
    '',
  ].join('\n');
}
