/** Topic and group names become subject tokens, stream, consumer and KV key names: keep them plain. */
const NAME = /^[A-Za-z0-9_-]{1,100}$/;

export function checkName(kind: 'topic' | 'group', name: string): void {
  if (!NAME.test(name)) throw new RangeError(`event log ${kind} "${name}" must match ${NAME}`);
}

export function partitionSubject(topic: string, partition: number): string {
  return `${topic}.${partition}`;
}

export function durableName(group: string, partition: number): string {
  return `${group}_p${partition}`;
}

export function coordinationBucket(stream: string): string {
  return `${stream}_members`;
}

export function memberKey(group: string, memberId: string): string {
  return `m.${group}.${memberId}`;
}

export function leaseKey(group: string, partition: number): string {
  return `l.${group}.${partition}`;
}
