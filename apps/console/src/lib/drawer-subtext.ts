/** Drawer header subtext (spec section 2): the email, or authentication_id or identifier followed by the id. */
export interface DrawerSubject {
  id?: number | string | null;
  email?: string | null;
  authentication_id?: string | null;
  identifier?: string | null;
}

export function drawerSubtext(info: DrawerSubject): string {
  if (info.email) return info.email;
  const key = info.authentication_id || info.identifier;
  const id = info.id ?? '';
  if (key) return `${key} ${id}`.trim();
  return `${id}`;
}
