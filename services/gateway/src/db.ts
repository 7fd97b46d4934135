import { PrismaClient } from './generated/prisma/client.ts';

export const SCHEMA = 'gateway';
export { PrismaClient };

declare module 'fastify' {
  interface FastifyInstance {
    db: PrismaClient;
  }
}
