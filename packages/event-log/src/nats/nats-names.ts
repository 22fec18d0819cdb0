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
