import { PrismaClient } from './generated/prisma/client.ts';

export const SCHEMA = 'gateway';
export { PrismaClient };
