import type { ClientSummary, ImpersonationEntry } from '@iot/db';

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

export function presentImpersonation(entry: ImpersonationEntry) {
  return {
    id: entry.id,
    action: entry.action,
    user_id: entry.userId,
    user_name: entry.userName,
    user_email: entry.userEmail,
    ip: entry.ip,
    created_at: entry.createdAt.toISOString(),
  };
}
