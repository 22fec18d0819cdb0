import type { ClientSummary } from '@iot/db';

export function presentClient(client: ClientSummary) {
  return {
    id: client.id,
    name: client.name,
    city: client.city,
    email: client.email,
    customer_number: client.customerNumber,
    modules: client.modules,
    is_nwa: client.isNwa,
    blocked: client.blocked,
    user_count: client.userCount,
    device_count: client.deviceCount,
    created_at: client.createdAt.toISOString(),
  };
}
