import { PrismaClient, type Prisma } from './generated/prisma/client.ts';

export const SCHEMA = 'moderation';
export { PrismaClient };
export type Tx = Prisma.TransactionClient;
