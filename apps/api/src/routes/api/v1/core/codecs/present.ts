import type { CodecRecord } from '@iot/db';

export function presentCodec(c: CodecRecord) {
  return {
    id: c.id,
    name: c.name,
    script: c.script,
    functions: c.functions,
    device_ids: c.deviceIds,
    suspended_at: c.suspendedAt?.toISOString() ?? null,
    suspended_reason: c.suspendedReason,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}
