/** The first screen's JS as the production build ships it, gzipped. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Gzipped JS of the first screen: the entry of index.html and the shell and /dashboard route chunks with
 * every chunk they import statically (dynamic imports are the lazy chunks: uPlot, the map, dialogs), and
 * the strings of one language (the larger of German and English).
 */
export function firstScreenGzipKb(dist: string): number {
  const assets = join(dist, 'assets');
  const files = readdirSync(assets);
  const entry = /src="\/assets\/([^"]+\.js)"/.exec(readFileSync(join(dist, 'index.html'), 'utf8'))?.[1];
  // The route chunks by name and hash (8 characters), not a lazy chunk whose name starts alike
  // (dashboard-name-form-<hash>.js).
  const routes = files.filter((f) => /^(shell-layout|dashboard)-[\w-]{8}\.js$/.test(f));
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(assets, file), 'utf8');
    for (const m of code.matchAll(/(?:import|export)\s*(?:[\w$*{},\s]*from\s*)?["']\.\/([^"']+\.js)["']/g))
      visit(m[1]!);
  };
  for (const file of [entry, ...routes]) if (file) visit(file);
  let bytes = 0;
  for (const file of seen) bytes += gzipSync(readFileSync(join(assets, file))).length;
  // The strings of one language are a lazy chunk that start-up awaits (lib/i18n.ts): the larger one counts.
  const languages = files.filter((f) => /^(de|en)-[\w-]+\.js$/.test(f));
  bytes += Math.max(0, ...languages.map((f) => gzipSync(readFileSync(join(assets, f))).length));
  return bytes / 1024;
}
