import { type FieldRules, validateObject } from '@iot/domain';
import { useEffect, useMemo, useRef, useState } from 'react';
import { type DefaultValues, type FieldValues, type Resolver, useForm, useWatch } from 'react-hook-form';
import { summarizeForm } from './form-state';

/** Fixed rules, or rules that depend on the other values (e.g. a confirmation needed once a password is typed). */
export type FormRules = FieldRules | ((values: Readonly<Record<string, unknown>>) => FieldRules);

function resolveRules(rules: FormRules, values: Readonly<Record<string, unknown>>): FieldRules {
  return typeof rules === 'function' ? rules(values) : rules;
}

/**
 * react-hook-form resolver over the domain's validation rules (the ones the API uses): every
 * failing field gets the message key `error.<first failing validator>` as its message.
 */
export function domainResolver<T extends FieldValues>(getRules: () => FormRules): Resolver<T> {
  return async (values) => {
    const record = values as Record<string, unknown>;
    const errors = validateObject(record, resolveRules(getRules(), record));
    if (Object.keys(errors).length === 0) return { values, errors: {} };
    const out: Record<string, { type: string; message: string }> = {};
    for (const [field, error] of Object.entries(errors)) out[field] = { type: error.key, message: error.key };
    return { values: {}, errors: out } as unknown as Awaited<ReturnType<Resolver<T>>>;
  };
}

/** useForm wired to the domain rules plus the spec's form state (marks, count, submit gate). */
export function useDomainForm<T extends FieldValues>(defaultValues: DefaultValues<T>, rules: FormRules) {
  // The resolver reads the latest rules, so rules that depend on loaded data (countries) stay current.
  const rulesRef = useRef(rules);
  rulesRef.current = rules;
  const [resolver] = useState(() => domainResolver<T>(() => rulesRef.current));
  const form = useForm<T>({ defaultValues, resolver, mode: 'onChange' });
  const [edited, setEdited] = useState<ReadonlySet<string>>(() => new Set());
  useEffect(() => {
    const subscription = form.watch((_values, { name, type }) => {
      if (type === 'change' && name) {
        const field = name.split('.')[0] ?? name;
        setEdited((prev) => (prev.has(field) ? prev : new Set([...prev, field])));
      }
    });
    return () => subscription.unsubscribe();
  }, [form]);
  const values = useWatch({ control: form.control }) as Record<string, unknown>;
  const summary = useMemo(
    () => summarizeForm(values, resolveRules(rules, values), edited),
    [values, rules, edited],
  );
  return { form, summary };
}
