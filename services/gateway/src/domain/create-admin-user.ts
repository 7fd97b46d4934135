import { AppError } from '@pixel-atlas/service-kit/errors';
import type { PrismaClient } from '../db.ts';
import { hashPassword } from './passwords.ts';

export interface CreateAdminUserOptions {
  db: PrismaClient;
  username: string;
  password: string;
  /** Replace the password when the user exists (the CLI); otherwise an existing user is left alone. */
  resetPasswordIfExists?: boolean;
}

export const ADMIN_PASSWORD_MIN = 12;

/** Creates an admin (the first one comes from configuration at start, others from `npm run admin:create`). */
export async function createAdminUser({ db, username, password, resetPasswordIfExists = false }: CreateAdminUserOptions) {
  const name = username.trim();
  if (!name) throw new AppError('VALIDATION_FAILED', 'Username is required');
  if (password.length < ADMIN_PASSWORD_MIN)
    throw new AppError('VALIDATION_FAILED', `Password must be at least ${ADMIN_PASSWORD_MIN} characters`);
  const existing = await db.adminUser.findUnique({ where: { username: name } });
  if (existing && !resetPasswordIfExists) return { user: existing, created: false };
  const passwordHash = await hashPassword(password);
  if (existing) {
    // A new password ends every session signed in with the old one.
    const user = await db.$transaction(async (tx) => {
      await tx.adminSession.updateMany({ where: { userId: existing.id, revokedAt: null }, data: { revokedAt: new Date() } });
      return tx.adminUser.update({ where: { id: existing.id }, data: { passwordHash } });
    });
    return { user, created: false };
  }
  const user = await db.adminUser.create({ data: { username: name, passwordHash } });
  return { user, created: true };
}
