import { PrismaClient } from './generated/prisma/client.ts';

export const SCHEMA = 'map';
export { PrismaClient };
