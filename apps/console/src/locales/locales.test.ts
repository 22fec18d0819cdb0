import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { domainMessages, flattenMessages, INTERFACE_LANGUAGES, MODULES } from '@iot/domain';
import { describe, expect, it } from 'vitest';
import { de } from './de';
import { en } from './en';
import { fr, LOGIN_AREA_DOMAIN_KEYS, LOGIN_AREA_KEYS } from './fr';

const SRC = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Literal keys in t('…'), labelKey: '…' and titleKey handles ('page.…'). */
function usedKeys(): Set<string> {
  const keys = new Set<string>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bt\('([a-z0-9][\w.-]*)'/g)) keys.add(m[1]!);
    for (const m of text.matchAll(/(?:labelKey|titleKey): '([\w.-]+)'/g)) keys.add(m[1]!);
    for (const m of text.matchAll(/placeholder\('(page\.[\w-]+)'/g)) keys.add(m[1]!);
  }
  return keys;
}

function resolvable(lang: 'en' | 'de', key: string): boolean {
  const own = lang === 'en' ? en : de;
  const domain = flattenMessages(domainMessages[lang]);
  // Plural keys are looked up with _one / _other suffixes.
  return [key, `${key}_one`, `${key}_other`].some((k) => k in own || k in domain);
}

describe('translations', () => {
  const keys = [...usedKeys()];

  it('finds the keys the code uses', () => {
    expect(keys.length).toBeGreaterThan(100);
    expect(keys).toContain('login.submit');
    expect(keys).toContain('page.dashboard');
  });

  it.each(['en', 'de'] as const)('every key used in the code exists in %s (console or domain)', (lang) => {
    expect(keys.filter((k) => !resolvable(lang, k))).toEqual([]);
  });

  it('German has exactly the English keys, none left empty or untranslated placeholders missing', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of Object.entries(en)) {
      const german = de[key as keyof typeof de];
      expect(german.length, key).toBeGreaterThan(0);
      const params = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      expect(params(german), key).toEqual(params(text));
    }
  });

  it('French covers the login area, its domain messages included', () => {
    for (const key of [...LOGIN_AREA_KEYS, ...LOGIN_AREA_DOMAIN_KEYS]) {
      expect(fr[key], key).toBeTruthy();
    }
  });

  it('dynamic keys: every module and interface language has a label', () => {
    for (const m of MODULES) expect(en[`module.${m}` as keyof typeof en], m).toBeTruthy();
    for (const l of INTERFACE_LANGUAGES) expect(en[`language.${l}` as keyof typeof en], l).toBeTruthy();
  });

  it('the 404 text is the spec wording', () => {
    expect(flattenMessages(domainMessages.en)['message.page-not-found']).toBe("UH OH! You're lost.");
  });
});
