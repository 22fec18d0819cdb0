import {
  type AggregationFunction,
  type ApiError,
  apiError,
  isAggregationFunction,
  virtualFieldName,
} from '@iot/domain';
import { aggregate } from './aggregate';
import { type CompiledFormula, compileFormula, type FormulaProblem } from './compile-formula';
import { DEFAULT_TIME_ZONE, type LocalTime, localTime } from './local-time';
import { MAPPING_KEY_MAX, mapValue } from './map-value';
import { readValue } from './read-value';
import { evaluationTime, laterOf } from './time';
import type { Device, FieldError, UplinkData, VirtualField, VirtualFieldState } from './types';

/** A virtual field ready to evaluate: its full name, compiled formula and aggregation function. */
export interface PreparedField {
  field: VirtualField;
  key: string;
  formula: CompiledFormula | null;
  fn: AggregationFunction | null;
}

export interface VirtualFieldProblem {
  fieldId: string;
  error: ApiError;
}

export interface PreparedFields {
  /** Valid fields in evaluation order (a field after the virtual fields its formula reads). */
  fields: PreparedField[];
  /** Invalid fields, left out of evaluation, with the catalogue error the API would answer. */
  problems: VirtualFieldProblem[];
}

const NAME_MAX = 100;
// Braces delimit field references in formulas and control characters break logs and CSV exports.
const NAME_FORBIDDEN = /[{}\p{Cc}]/u;

/** A mapping key longer than any value or range needs: refused at save, so no uplink pays for it. */
function longMappingKey(field: VirtualField): string | undefined {
  return Object.keys(field.mapping ?? {}).find((key) => key.length > MAPPING_KEY_MAX);
}

function formulaError(
  problem: FormulaProblem | 'cycle' | 'mapping_key_too_long',
  message: string,
  subject?: string,
): ApiError {
  return apiError('VIRTUAL_FIELD_FORMULA_INVALID', {
    problem,
    message,
    ...(subject === undefined ? {} : { subject }),
  });
}

/**
 * Checks a device's virtual fields as the API must before saving, and orders them for evaluation.
 * Codes (spec section 8, domain catalogue): 88 name invalid (empty, over 100 characters, braces or
 * control characters), 91 name taken on the device, 90 aggregation function unknown, 89 formula invalid
 * (details.problem: empty, syntax, string_literal, unknown_field, forbidden_function, unknown_function,
 * forbidden_construct, division_by_zero, non_finite, cycle; mapping_key_too_long for a mapping key over
 * MAPPING_KEY_MAX characters).
 */
export function prepareVirtualFields(device: Device, virtualFields: readonly VirtualField[]): PreparedFields {
  const problems: VirtualFieldProblem[] = [];
  const known = new Set<string>(device.dataFields ?? []);
  for (const field of virtualFields) known.add(virtualFieldName(field.uuid, field.name));
  const seen = new Set<string>();
  const candidates: PreparedField[] = [];
  for (const field of virtualFields) {
    const name = field.name.trim();
    let error: ApiError | null = null;
    let formula: CompiledFormula | null = null;
    if (name === '' || name.length > NAME_MAX || NAME_FORBIDDEN.test(field.name)) {
      error = apiError('VIRTUAL_FIELD_NAME_INVALID', { name: field.name });
    } else if (seen.has(name)) {
      error = apiError('VIRTUAL_FIELD_NAME_EXISTS', { name: field.name });
    } else if (longMappingKey(field) !== undefined) {
      error = formulaError(
        'mapping_key_too_long',
        `A mapping key has more than ${MAPPING_KEY_MAX} characters.`,
        longMappingKey(field)?.slice(0, MAPPING_KEY_MAX),
      );
    } else if (field.function != null && !isAggregationFunction(field.function)) {
      error = apiError('VIRTUAL_FIELD_FUNCTION_UNKNOWN', { function: field.function });
    } else if (field.formula != null && field.formula.trim() !== '') {
      const compiled = compileFormula(field.formula, known);
      if (compiled.ok) formula = compiled.formula;
      else error = formulaError(compiled.error.problem, compiled.error.message, compiled.error.subject);
    } else if (field.function == null) {
      error = formulaError('empty', 'A virtual field needs a formula, a function or both.');
    }
    seen.add(name);
    if (error) problems.push({ fieldId: field.id, error });
    else
      candidates.push({
        field,
        key: virtualFieldName(field.uuid, field.name),
        formula,
        fn: isAggregationFunction(field.function) ? field.function : null,
      });
  }
  return { fields: orderByDependencies(candidates, problems), problems };
}

/** Depth-first topological order; fields on a cycle (or reading a refused field) are refused with 89. */
function orderByDependencies(candidates: PreparedField[], problems: VirtualFieldProblem[]): PreparedField[] {
  const byKey = new Map(candidates.map((candidate) => [candidate.key, candidate]));
  const refused = new Set(problems.map((problem) => problem.fieldId));
  const state = new Map<string, 'visiting' | 'done' | 'failed'>();
  const ordered: PreparedField[] = [];
  const visit = (candidate: PreparedField): boolean => {
    const mark = state.get(candidate.key);
    if (mark === 'done') return true;
    if (mark === 'failed') return false;
    if (mark === 'visiting') return false;
    state.set(candidate.key, 'visiting');
    let ok = true;
    for (const dependency of candidate.formula?.fields ?? []) {
      const target = byKey.get(dependency);
      if (target && !visit(target)) ok = false;
    }
    if (!ok) {
      state.set(candidate.key, 'failed');
      if (!refused.has(candidate.field.id)) {
        refused.add(candidate.field.id);
        problems.push({
          fieldId: candidate.field.id,
          error: formulaError(
            'cycle',
            'The formula depends on itself through other virtual fields.',
            candidate.key,
          ),
        });
      }
      return false;
    }
    state.set(candidate.key, 'done');
    ordered.push(candidate);
    return true;
  };
  for (const candidate of candidates) visit(candidate);
  return ordered;
}

/** Validates one virtual field in the context of the device's others (the API's create/update check). */
export function validateVirtualField(
  device: Device,
  field: VirtualField,
  others: readonly VirtualField[] = [],
): ApiError | null {
  const all = [...others.filter((other) => other.id !== field.id), field];
  return (
    prepareVirtualFields(device, all).problems.find((problem) => problem.fieldId === field.id)?.error ?? null
  );
}

export interface ComputedFields {
  /** Numeric values of the virtual fields that have one, before mapping (what rules compare). */
  values: Record<string, number>;
  /** Mapped values keyed by full name, only for stored fields unless `includeUnstored`. */
  data: Record<string, string | number>;
  errors: FieldError[];
  states: Record<string, VirtualFieldState>;
  /** Set when the point was older than a function's last one (see `computePreparedFields`). */
  late?: { lastAt: number; evaluatedAt: number };
}

/** When a data point happened, for the aggregation functions. */
export interface PointClock {
  /** The point's time (epoch ms). */
  at: number;
  /** When the platform received it (asked only for a point older than a function's last one). */
  receivedAt: () => number;
  /** Local time in the company's zone of any instant (the point's own is asked for most). */
  localTime: (ms: number) => LocalTime;
}

/**
 * Computes the virtual fields for one data point. Stateful aggregation functions read and return their
 * state; the read path (fields with store = false) runs the same function over the stored points in
 * time order, starting from empty states. A point older than a function's last one is aggregated at
 * its `evaluationTime` (the function's last time or the point's receipt), not dropped: a meter's
 * reading delivered late still counts.
 */
export function computePreparedFields(
  prepared: readonly PreparedField[],
  data: UplinkData,
  clock: PointClock,
  states: Readonly<Record<string, VirtualFieldState>>,
  includeUnstored: boolean,
): ComputedFields {
  const values: Record<string, number> = {};
  const out: Record<string, string | number> = {};
  const errors: FieldError[] = [];
  const nextStates: Record<string, VirtualFieldState> = {};
  let late: { lastAt: number; evaluatedAt: number } | undefined;
  const read = (name: string): number | null => values[name] ?? readValue(data, name);
  for (const { field, key, formula, fn } of prepared) {
    const state = states[field.id] ?? {};
    let input: number | null = 1; // without a formula each data point is one event of value 1
    if (formula) {
      const args: number[] = [];
      for (const name of formula.fields) {
        const value = read(name);
        if (value === null) break;
        args.push(value);
      }
      if (args.length < formula.fields.length) {
        errors.push({ field: key, reason: 'missing_input' });
        continue;
      }
      input = formula.evaluate(args);
      if (input === null) {
        errors.push({ field: key, reason: 'non_finite' });
        continue;
      }
    }
    let value: number | null = input;
    if (fn) {
      const at = evaluationTime(clock.at, clock.receivedAt, state.lastAt);
      if (at !== clock.at) late = laterOf(late, state.lastAt!, at);
      const step = aggregate(fn, input, at, clock.localTime(at), state);
      nextStates[field.id] = step.state;
      value = step.value;
    }
    if (value === null) continue;
    values[key] = value;
    if (includeUnstored || field.store !== false) out[key] = mapValue(value, field.mapping);
  }
  return late
    ? { values, data: out, errors, states: nextStates, late }
    : { values, data: out, errors, states: nextStates };
}

/**
 * The read path: virtual fields of one data point, stored or not. Validates and compiles on each call;
 * for many points use `prepareVirtualFields` once and `computePreparedFields` per point.
 */
export function computeVirtualFields(options: {
  device: Device;
  virtualFields: readonly VirtualField[];
  data: UplinkData;
  at: number;
  timeZone?: string;
  states?: Readonly<Record<string, VirtualFieldState>>;
}): ComputedFields & { problems: VirtualFieldProblem[] } {
  const prepared = prepareVirtualFields(options.device, options.virtualFields);
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const computed = computePreparedFields(
    prepared.fields,
    options.data,
    { at: options.at, receivedAt: () => options.at, localTime: (ms) => localTime(ms, timeZone) },
    options.states ?? {},
    true,
  );
  return { ...computed, problems: prepared.problems };
}
