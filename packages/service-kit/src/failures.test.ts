import { describe, expect, it } from 'vitest';
import { sqlState, violatedConstraint } from './failures.ts';

/** Shapes as Prisma 7 over @prisma/adapter-pg throws them (recorded against PostgreSQL), and as pg throws its own. */
const prismaRaw = (cause: Record<string, unknown>) => ({
  name: 'PrismaClientKnownRequestError',
  code: 'P2010',
  meta: { driverAdapterError: { name: 'DriverAdapterError', cause } },
});
const exclusion = prismaRaw({
  originalCode: '23P01',
  kind: 'postgres',
  code: '23P01',
  severity: 'ERROR',
  message: 'conflicting key value violates exclusion constraint "t_r_excl"',
});
const unique = {
  name: 'PrismaClientKnownRequestError',
  code: 'P2002',
  meta: {
    modelName: 'Footprint',
    driverAdapterError: {
      name: 'DriverAdapterError',
      cause: { originalCode: '23505', kind: 'UniqueConstraintViolation', constraint: { index: 'footprints_hold_id_key' } },
    },
  },
};
const serialization = prismaRaw({ originalCode: '40001', originalMessage: '40001', kind: 'TransactionWriteConflict' });
const pgUnique = Object.assign(new Error('duplicate key value violates unique constraint "plots_session_key"'), {
  code: '23505',
  severity: 'ERROR',
  constraint: 'plots_session_key',
});

describe('sqlState and violatedConstraint', () => {
  it("read PostgreSQL's code and constraint through Prisma's driver-adapter error, pg's own error and a cause", () => {
    expect(sqlState(exclusion)).toBe('23P01');
    expect(sqlState(unique)).toBe('23505');
    expect(violatedConstraint(unique)).toBe('footprints_hold_id_key');
    expect(sqlState(serialization)).toBe('40001');
    expect(sqlState(pgUnique)).toBe('23505');
    expect(violatedConstraint(pgUnique)).toBe('plots_session_key');
    expect(sqlState(new Error('wrapped', { cause: pgUnique }))).toBe('23505');
  });

  it('take no Prisma code (P2002, P2034) for a SQLSTATE, and nothing from an error without one', () => {
    expect(sqlState({ name: 'PrismaClientKnownRequestError', code: 'P2034', meta: {} })).toBeUndefined();
    expect(sqlState(new Error('23505 in the message is not a code'))).toBeUndefined();
    expect(sqlState(undefined)).toBeUndefined();
    expect(violatedConstraint(exclusion)).toBeUndefined();
  });
});
