import { PrismaClient } from './generated/prisma/client.ts';

export const SCHEMA = 'map';
export { PrismaClient };

declare module 'fastify' {
  interface FastifyInstance {
    db: PrismaClient;
  }
}
