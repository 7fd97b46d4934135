import { SERVICES } from '@pixel-atlas/contracts/services';
import { PrismaClient, type Prisma } from './generated/prisma/client.ts';

export const SCHEMA = SERVICES.plots.schema;
export { PrismaClient };
export type Tx = Prisma.TransactionClient;

/** Fully qualified table names for the few raw statements (range overlap tests Prisma cannot express). */
export const TABLE = {
  footprints: `"${SCHEMA}"."footprints"`,
  plots: `"${SCHEMA}"."plots"`,
} as const;
