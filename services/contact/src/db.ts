import { PrismaClient } from './generated/prisma/client.ts';

export const SCHEMA = 'contact';
export { PrismaClient };
