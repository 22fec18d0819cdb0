/**
 * How the API serves the console's build (CONSOLE_DIR): Vite names every file under assets/ by its
 * content hash, so those are cached for a year as immutable and a browser never asks for them again;
 * index.html (and anything else outside assets/) is revalidated on every load, so a new build shows at
 * once. The build writes brotli and gzip copies beside each file over 1 kB (vite-plugin-compression2), sent
 * to browsers that accept them; files without a copy (index.html) are compressed per request by
 * @fastify/compress (app.ts), which leaves an answer that has its encoding alone.
 */
import { sep } from 'node:path';
import type { FastifyStaticOptions } from '@fastify/static';

const IMMUTABLE = 'public, max-age=31536000, immutable';

export function consoleStaticOptions(root: string): FastifyStaticOptions {
  const assets = `${root}${sep}assets${sep}`;
  return {
    root,
    // Files are looked up when asked for, so a rebuild while the platform runs is served at once.
    wildcard: true,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (res, path) => {
      res.setHeader('cache-control', path.startsWith(assets) ? IMMUTABLE : 'no-cache');
      res.setHeader('vary', 'accept-encoding');
    },
  };
}

/** Paths the console's router handles: everything but the API, health, metrics and the build's own files. */
export function isClientRoute(path: string): boolean {
  return !(
    path.startsWith('/api/') ||
    path.startsWith('/sanctum/') ||
    path.startsWith('/assets/') ||
    path === '/health' ||
    path.startsWith('/health/') ||
    path === '/metrics' ||
    path === '/api'
  );
}
