export { type BuildAppOptions, buildApp } from './app';
export { requireModule, requireSession } from './plugins/guards';
export type { AuthContext } from './types';
