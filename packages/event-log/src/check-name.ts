/**
 * Topic and group names become NATS subject tokens, stream, consumer and KV key names, and Kafka
 * topic / group ids: the common safe alphabet keeps one name valid on every adapter.
 */
const NAME = /^[A-Za-z0-9_-]{1,100}$/;

export function checkName(kind: 'topic' | 'group', name: string): void {
  if (!NAME.test(name)) throw new RangeError(`event log ${kind} "${name}" must match ${NAME}`);
}
