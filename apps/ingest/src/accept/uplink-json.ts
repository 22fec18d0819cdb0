/**
 * What a JSON uplink may contain, checked at the front door so that nothing is acknowledged that the
 * storage writer would refuse: PostgreSQL's jsonb holds no lone UTF-16 surrogate and no NUL character,
 * and nesting deeper than any device's data (ChirpStack's and TTS's own envelopes need under ten levels)
 * only costs stack further down. The walk is iterative, so a hostile depth cannot overflow it.
 */
export const MAX_JSON_DEPTH = 32;

/** Why `value` cannot be stored, or undefined when it can. */
export function unstorableJson(value: unknown, maxDepth = MAX_JSON_DEPTH): string | undefined {
  if (typeof value === 'string') return unstorableText(value);
  // Only containers go on the stack: a flat uplink of numbers and strings is checked in one loop.
  const stack: [object, number][] = [];
  const visit = (item: unknown, depth: number): string | undefined => {
    if (typeof item === 'string') return unstorableText(item);
    if (typeof item !== 'object' || item === null) return undefined;
    if (depth >= maxDepth) return `JSON nested deeper than ${maxDepth} levels`;
    stack.push([item, depth]);
    return undefined;
  };
  let problem = visit(value, 0);
  while (problem === undefined && stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length && problem === undefined; i++) problem = visit(item[i], depth + 1);
      continue;
    }
    for (const key of Object.keys(item)) {
      const keyProblem = unstorableText(key);
      if (keyProblem) return `key ${keyProblem}`;
      problem = visit((item as Record<string, unknown>)[key], depth + 1);
      if (problem) break;
    }
  }
  return problem;
}

// With the u flag a surrogate pair is one code point, so only a lone surrogate is of category Cs.
const LONE_SURROGATE = /\p{Cs}/u;

function unstorableText(text: string): string | undefined {
  if (LONE_SURROGATE.test(text)) return 'text with a lone UTF-16 surrogate';
  if (text.includes('\u0000')) return 'text with a NUL character';
  return undefined;
}
