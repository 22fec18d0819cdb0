import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { nodeAppBundle } from '../../tsup.base';

function commit(): string {
  try {
    return execSync('git rev-parse --short=8 HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'unknown';
  }
}

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineConfig({
  ...nodeAppBundle,
  // The console shows the first 8 characters of the version (spec section 9): the build's commit identifies it
  // exactly; a build outside git falls back to the package version.
  define: { __PLATFORM_VERSION__: JSON.stringify(commit() === 'unknown' ? version : commit()) },
});
