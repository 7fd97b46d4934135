import { SERVICES } from '@pixel-atlas/contracts/services';
import { PrismaClient, type Prisma } from './generated/prisma/client.ts';

export const SCHEMA = SERVICES.moderation.schema;
export { PrismaClient };
export type Tx = Prisma.TransactionClient;
