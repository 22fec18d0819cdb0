import type { Static, TSchema } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import { type JobDefinition, JobPayloadError } from './types';

/**
 * Each job's schema compiled once into a checking function: every job is checked when it is enqueued
 * and again when it starts, and the interpreted `Value.Check` was about 2 % of the embedded platform's
 * main thread in the rules benchmark's alarm storm (500 jobs/s; tests/bench/README.md).
 */
const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

function checkerFor(schema: TSchema): TypeCheck<TSchema> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

/** Checks a payload against its job's schema; throws JobPayloadError listing the problems. */
export function validatePayload<S extends TSchema>(job: JobDefinition<S>, payload: unknown): Static<S> {
  const check = checkerFor(job.payload);
  if (check.Check(payload)) return payload as Static<S>;
  const problems = [...check.Errors(payload)].slice(0, 5).map((e) => `${e.path || '(root)'}: ${e.message}`);
  throw new JobPayloadError(job.name, problems);
}
