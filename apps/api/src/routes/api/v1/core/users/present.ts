import type { UserRecord } from '@iot/db';

export function presentUser(user: UserRecord) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    locale: user.locale,
    roles: user.roles,
    is_admin: user.roles.includes('ROLE_ADMIN'),
    is_mainuser: user.roles.includes('ROLE_MAINUSER'),
    eula_accepted: user.eulaAccepted,
    require_password_reset: user.requirePasswordReset,
    phone: user.phone,
    company_id: user.companyId,
    last_login: user.lastLoginAt ? user.lastLoginAt.toISOString() : null,
    created_at: user.createdAt.toISOString(),
  };
}
