/**
 * Writes src/migrations/embedded.ts from the .sql files beside it, so bundled apps carry their migrations
 * in their JavaScript (see src/migrate.ts). Run after adding or changing a migration:
 *   npm run migrations:embed -w @iot/db
 * migrate.test.ts fails while the embedded text and the .sql files differ.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderEmbeddedMigrations } from '../src/migrations/render-embedded';

const dir = fileURLToPath(new URL('../src/migrations/', import.meta.url));
const target = `${dir}embedded.ts`;
writeFileSync(target, renderEmbeddedMigrations(dir));
execFileSync('npx', ['biome', 'format', '--write', target], { stdio: 'inherit' });
