import type { GroupRecord } from '@iot/db';

export function presentGroup(g: GroupRecord) {
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    device_count: g.deviceIds.length,
    device_ids: g.deviceIds,
    created_at: g.createdAt.toISOString(),
    updated_at: g.updatedAt.toISOString(),
  };
}
