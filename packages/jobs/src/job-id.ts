/**
 * Queue id of a job from its idempotency key. BullMQ refuses custom ids with ':' (keys are
 * `<rule>:<uplink>:<action>`), and base64url is reversible, so two keys never share an id.
 */
export function jobIdFor(name: string, idempotencyKey: string): string {
  return `${name}.${Buffer.from(idempotencyKey, 'utf8').toString('base64url')}`;
}
