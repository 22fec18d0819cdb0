/**
 * What a JSON uplink may contain, checked at the front door so that nothing is acknowledged that the
 * storage writer would refuse: PostgreSQL's jsonb holds no lone UTF-16 surrogate and no NUL character,
 * and nesting deeper than any device's data (ChirpStack's and TTS's own envelopes need under ten levels)
 * only costs stack further down. The walk is iterative, so a hostile depth cannot overflow it.
 */
export const MAX_JSON_DEPTH = 32;

/** Why `value` cannot be stored, or undefined when it can. */
export function unstorableJson(value: unknown, maxDepth = MAX_JSON_DEPTH): string | undefined {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item === 'string') {
      const problem = unstorableText(item);
      if (problem) return problem;
      continue;
    }
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= maxDepth) return `JSON nested deeper than ${maxDepth} levels`;
    if (Array.isArray(item)) {
      for (const element of item) stack.push([element, depth + 1]);
      continue;
    }
    for (const key of Object.keys(item)) {
      const problem = unstorableText(key);
      if (problem) return `key ${problem}`;
      stack.push([(item as Record<string, unknown>)[key], depth + 1]);
    }
  }
  return undefined;
}

// With the u flag a surrogate pair is one code point, so only a lone surrogate is of category Cs.
const LONE_SURROGATE = /\p{Cs}/u;

function unstorableText(text: string): string | undefined {
  if (LONE_SURROGATE.test(text)) return 'text with a lone UTF-16 surrogate';
  if (text.includes('\u0000')) return 'text with a NUL character';
  return undefined;
}
