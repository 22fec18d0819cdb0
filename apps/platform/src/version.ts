// Replaced at build time by tsup's `define` with the package version and git commit; falls back when run from source.
declare const __PLATFORM_VERSION__: string | undefined;

export const PLATFORM_VERSION: string =
  typeof __PLATFORM_VERSION__ === 'string' ? __PLATFORM_VERSION__ : '0.0.0-dev';
