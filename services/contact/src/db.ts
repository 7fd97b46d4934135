import { SERVICES } from '@pixel-atlas/contracts/services';
import { PrismaClient } from './generated/prisma/client.ts';

export const SCHEMA = SERVICES.contact.schema;
export { PrismaClient };
