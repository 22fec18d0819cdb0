/** First path segments of the router's child routes, for start-up step (1) (spec section 2). */
export interface RouteLike {
  path?: string;
  children?: readonly RouteLike[];
}

export function collectSegments(list: readonly RouteLike[]): string[] {
  const out = new Set<string>();
  for (const route of list) {
    const first = route.path?.replace(/^\//, '').split('/')[0];
    if (first && first !== '*' && !first.startsWith(':')) out.add(first);
    // Pathless layouts and the root pass their children's segments up.
    if (route.children && (!route.path || route.path === '/')) {
      for (const s of collectSegments(route.children)) out.add(s);
    }
  }
  return [...out];
}
