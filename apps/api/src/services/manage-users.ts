/**
 * User management rules of spec section 6, for one acting company:
 * - only ROLE_MAINUSER or ROLE_ADMIN create, edit or delete other users (64);
 * - an address is registered once (73);
 * - the main user cannot be overridden (54): a user without the main role cannot change or delete a
 *   main user nor grant the main role, and nobody removes the company's last main user;
 * - nobody deletes themselves (50103).
 * A super admin acting for a client counts as its main user.
 */
import type { Db, Queryable } from '@iot/db';
import {
  countMainUsers,
  deleteUserSessions,
  findUserById,
  insertUser,
  isEmailRegistered,
  recordAuditEvent,
  softDeleteUser,
  type UserChanges,
  type UserRecord,
  updateUser,
  withTenant,
} from '@iot/db';
import { FORM_RULES } from '@iot/domain';
import { apiError } from '../lib/errors';
import { hashPassword } from '../lib/passwords';
import { randomToken } from '../lib/tokens';
import { validateBody } from '../lib/validation';
import { isManager, isSuperAdmin, ROLE_ADMIN, ROLE_MAINUSER } from '../plugins/guards';
import type { AuthContext } from '../types';
import { refuseAtLimit } from './check-limits';
import { checkNewPassword } from './check-new-password';

export interface UserInput {
  email?: string;
  name?: string;
  locale?: string;
  roles?: string[];
  phone?: string | null;
  password?: string;
  passwordConfirmation?: string;
  requirePasswordReset?: boolean;
}

function actsAsMainUser(auth: AuthContext): boolean {
  return auth.roles.includes(ROLE_MAINUSER) || isSuperAdmin(auth);
}

/** The user form's rules (name, email, phone) for the fields present; 422 with the failing fields. */
function checkProfile(input: UserInput, partial: boolean): void {
  const values = {
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.email === undefined ? {} : { email: input.email.trim() }),
    ...(input.phone == null || input.phone === '' ? {} : { phone: input.phone }),
  };
  validateBody(
    values,
    { name: FORM_RULES.user.name, email: FORM_RULES.user.email, phone: ['phone'] },
    { partial },
  );
}

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === '23505';
}

async function requireUser(db: Db, auth: AuthContext, id: number): Promise<UserRecord> {
  // Scoped to the acting company: another company's user id is simply not found (62), never shown.
  const user = await withTenant(db, auth.companyId, (tx) => findUserById(tx, auth.companyId, id));
  if (!user) throw apiError('USER_NOT_FOUND');
  return user;
}

async function checkMainRoleChange(
  q: Queryable,
  auth: AuthContext,
  before: string[],
  after: string[],
  userId?: number,
) {
  const wasMain = before.includes(ROLE_MAINUSER);
  const isMain = after.includes(ROLE_MAINUSER);
  if (!wasMain && isMain && !actsAsMainUser(auth)) throw apiError('MAIN_USER_CANNOT_BE_OVERRIDDEN');
  if (wasMain && !isMain && userId !== undefined && (await countMainUsers(q, auth.companyId)) <= 1) {
    throw apiError('MAIN_USER_CANNOT_BE_OVERRIDDEN');
  }
}

export async function createUser(
  db: Db,
  auth: AuthContext,
  input: UserInput & { email: string; name: string },
) {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_CREATE_USER');
  checkProfile(input, false);
  const email = input.email.trim();
  const roles = input.roles ?? [];
  await checkMainRoleChange(db, auth, [], roles);
  let password = input.password;
  if (password !== undefined) checkNewPassword(password, input.passwordConfirmation);
  // Without a password the user gets a random one nobody knows and must set their own via reset.
  const invited = password === undefined;
  password ??= randomToken();
  if (await isEmailRegistered(db, email)) throw apiError('EMAIL_ALREADY_REGISTERED');
  const passwordHash = await hashPassword(password);
  try {
    return await withTenant(db, auth.companyId, async (tx) => {
      await refuseAtLimit(tx, auth.companyId, 'max_users');
      const user = await insertUser(tx, auth.companyId, {
        email,
        name: input.name,
        passwordHash,
        ...(input.locale ? { locale: input.locale } : {}),
        roles,
        phone: input.phone ?? null,
        requirePasswordReset: invited || (input.requirePasswordReset ?? false),
      });
      await recordAuditEvent(tx, {
        companyId: auth.companyId,
        userId: auth.user.id,
        action: 'user.create',
        details: { target_user_id: user.id, roles },
      });
      return { user, invited };
    });
  } catch (err) {
    // Two concurrent creates with one address: the unique index decides, the loser gets 73.
    if (isUniqueViolation(err)) throw apiError('EMAIL_ALREADY_REGISTERED');
    throw err;
  }
}

export async function updateUserAsActor(db: Db, auth: AuthContext, id: number, input: UserInput) {
  const target = await requireUser(db, auth, id);
  const self = target.id === auth.user.id;
  const manager = isManager(auth);
  if (!self && !manager) throw apiError('NO_PERMISSION_TO_CREATE_USER');
  if (!self && target.roles.includes(ROLE_MAINUSER) && !actsAsMainUser(auth)) {
    throw apiError('MAIN_USER_CANNOT_BE_OVERRIDDEN');
  }
  checkProfile(input, true);
  const changes: UserChanges = {};
  if (input.roles !== undefined) {
    const same =
      input.roles.length === target.roles.length && input.roles.every((role) => target.roles.includes(role));
    // A plain user may edit their own profile, but not their own roles.
    if (!same && !manager) throw apiError('NO_PERMISSION_TO_CREATE_USER');
    if (!same) {
      await checkMainRoleChange(db, auth, target.roles, input.roles, target.id);
      changes.roles = input.roles;
    }
  }
  if (input.email !== undefined && input.email.trim().toLowerCase() !== target.email.toLowerCase()) {
    const email = input.email.trim();
    if (await isEmailRegistered(db, email, target.id)) throw apiError('EMAIL_ALREADY_REGISTERED');
    changes.email = email;
  }
  if (input.name !== undefined) changes.name = input.name;
  if (input.locale !== undefined) changes.locale = input.locale;
  if (input.phone !== undefined) changes.phone = input.phone;
  if (input.requirePasswordReset !== undefined) {
    if (!manager) throw apiError('NO_PERMISSION_TO_CREATE_USER');
    changes.requirePasswordReset = input.requirePasswordReset;
  }
  if (input.password !== undefined) {
    // A plain user changes their own password through /auth/reset-password with the current one.
    if (!manager) throw apiError('NO_PERMISSION_TO_CREATE_USER');
    checkNewPassword(input.password, input.passwordConfirmation);
    changes.passwordHash = await hashPassword(input.password);
  }
  try {
    const demotesMainUser =
      changes.roles !== undefined &&
      target.roles.includes(ROLE_MAINUSER) &&
      !changes.roles.includes(ROLE_MAINUSER);
    const updated = await withTenant(db, auth.companyId, async (tx) => {
      // Checked again under lock: the check above may have raced with another demotion.
      if (demotesMainUser && (await countMainUsers(tx, auth.companyId, true)) <= 1) {
        throw apiError('MAIN_USER_CANNOT_BE_OVERRIDDEN');
      }
      const updated = await updateUser(tx, auth.companyId, target.id, changes);
      if (!updated) throw apiError('USER_NOT_FOUND');
      await recordAuditEvent(tx, {
        companyId: auth.companyId,
        userId: auth.user.id,
        action: 'user.update',
        details: {
          target_user_id: target.id,
          fields: Object.keys(changes).filter((k) => k !== 'passwordHash'),
        },
      });
      return updated;
    });
    // Sessions are platform tables outside the tenant's grants; a new password set by a manager logs the
    // user out everywhere.
    if (changes.passwordHash && !self) await deleteUserSessions(db, target.id);
    return updated;
  } catch (err) {
    if (isUniqueViolation(err)) throw apiError('EMAIL_ALREADY_REGISTERED');
    throw err;
  }
}

/** Grants or withdraws ROLE_ADMIN (the admin toggle of spec section 4). */
export async function setUserAdmin(db: Db, auth: AuthContext, id: number, admin: boolean) {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_CREATE_USER');
  const target = await requireUser(db, auth, id);
  const roles = admin
    ? [...new Set([...target.roles, ROLE_ADMIN])]
    : target.roles.filter((role) => role !== ROLE_ADMIN);
  return updateUserAsActor(db, auth, id, { roles });
}

export async function deleteUserAsActor(db: Db, auth: AuthContext, id: number): Promise<void> {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_CREATE_USER');
  const target = await requireUser(db, auth, id);
  if (target.id === auth.user.id) throw apiError('USER_CANNOT_DELETE_SELF');
  if (target.roles.includes(ROLE_MAINUSER)) {
    if (!actsAsMainUser(auth)) throw apiError('MAIN_USER_CANNOT_BE_OVERRIDDEN');
    if ((await countMainUsers(db, auth.companyId)) <= 1) throw apiError('MAIN_USER_CANNOT_BE_OVERRIDDEN');
  }
  await withTenant(db, auth.companyId, async (tx) => {
    if (target.roles.includes(ROLE_MAINUSER) && (await countMainUsers(tx, auth.companyId, true)) <= 1) {
      throw apiError('MAIN_USER_CANNOT_BE_OVERRIDDEN');
    }
    if (!(await softDeleteUser(tx, auth.companyId, target.id))) throw apiError('USER_NOT_FOUND');
    await recordAuditEvent(tx, {
      companyId: auth.companyId,
      userId: auth.user.id,
      action: 'user.delete',
      details: { target_user_id: target.id },
    });
  });
  // A deleted user's sessions already stop working (session lookup checks deleted_at); this removes them.
  await deleteUserSessions(db, target.id);
}
