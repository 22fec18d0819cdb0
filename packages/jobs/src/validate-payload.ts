import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { type JobDefinition, JobPayloadError } from './types';

/** Checks a payload against its job's schema; throws JobPayloadError listing the problems. */
export function validatePayload<S extends TSchema>(job: JobDefinition<S>, payload: unknown): Static<S> {
  if (Value.Check(job.payload, payload)) return payload as Static<S>;
  const problems = [...Value.Errors(job.payload, payload)]
    .slice(0, 5)
    .map((e) => `${e.path || '(root)'}: ${e.message}`);
  throw new JobPayloadError(job.name, problems);
}
