import type { ContactRequest, ContactResponse } from '@pixel-atlas/contracts/contact';
import { enqueueEvent } from '@pixel-atlas/service-kit/outbox';
import { SCHEMA, type PrismaClient } from '../db.ts';

export interface SubmitContactMessageOptions {
  db: PrismaClient;
  message: ContactRequest;
  clientIp: string | null;
  requestId?: string;
}

/** Stores the submission and its `contact.message.received` event in one transaction. */
export async function submitContactMessage({ db, message, clientIp, requestId }: SubmitContactMessageOptions): Promise<ContactResponse> {
  const submission = await db.$transaction(async (tx) => {
    const row = await tx.contactSubmission.create({ data: { ...message, clientIp } });
    await enqueueEvent({
      tx,
      schema: SCHEMA,
      type: 'contact.message.received',
      requestId,
      data: {
        id: row.id,
        name: row.name,
        email: row.email,
        subject: row.subject,
        message: row.message,
        submittedAt: row.submittedAt.toISOString(),
      },
    });
    return row;
  });
  return { id: submission.id, submittedAt: submission.submittedAt.toISOString() };
}
