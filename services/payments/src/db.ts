import { PrismaClient, type Prisma } from './generated/prisma/client.ts';

export const SCHEMA = 'payments';
export { PrismaClient };
export type Tx = Prisma.TransactionClient;
