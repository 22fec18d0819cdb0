import type { Static, TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import type { TLocalizedValidationError } from 'typebox/error';
import { type JobDefinition, JobPayloadError } from './types';

/**
 * Each job's schema compiled once into a checking function: every job is checked when it is enqueued
 * and again when it starts, and the interpreted `Value.Check` was about 2 % of the embedded platform's
 * main thread in the rules benchmark's alarm storm (500 jobs/s; tests/bench/README.md).
 */
const compiled = new WeakMap<TSchema, Validator>();

function checkerFor(schema: TSchema): Validator {
  let check = compiled.get(schema);
  if (!check) {
    check = Compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

/** One error as `path: message`; an extra property is named by its own path (TypeBox 1 reports its parent). */
function describeError(error: TLocalizedValidationError): string[] {
  if (error.keyword === 'additionalProperties') {
    return error.params.additionalProperties.map(
      (name) => `${error.instancePath}/${name}: must not have additional properties`,
    );
  }
  return [`${error.instancePath || '(root)'}: ${error.message}`];
}

/** Checks a payload against its job's schema; throws JobPayloadError listing the problems. */
export function validatePayload<S extends TSchema>(job: JobDefinition<S>, payload: unknown): Static<S> {
  const check = checkerFor(job.payload);
  if (check.Check(payload)) return payload as Static<S>;
  const problems = check.Errors(payload).flatMap(describeError).slice(0, 5);
  throw new JobPayloadError(job.name, problems);
}
