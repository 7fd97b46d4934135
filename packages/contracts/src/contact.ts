import { z } from 'zod';
import { visibleText } from './text.ts';

export const CONTACT_SUBJECTS = [
  { value: 'general', label: 'General Inquiry' },
  { value: 'technical', label: 'Technical Support' },
  { value: 'billing', label: 'Billing & Payments' },
  { value: 'plot-issue', label: 'Plot/Tile Issues' },
  { value: 'content-moderation', label: 'Content Moderation' },
  { value: 'business', label: 'Business Partnership' },
  { value: 'feedback', label: 'Feedback & Suggestions' },
  { value: 'other', label: 'Other' },
] as const;
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number]['value'];
const subjectValues = CONTACT_SUBJECTS.map((s) => s.value) as [ContactSubject, ...ContactSubject[]];

/** The spec leaves the message unbounded; a cap keeps one request from filling the database. */
export const CONTACT_MESSAGE_MAX = 5000;

export const contactRequestSchema = z
  .object({
    name: z.string().trim().check(visibleText('Name')).min(1, 'Name is required').max(100, 'Name must be at most 100 characters'),
    email: z.email('Please enter a valid email address').max(254),
    subject: z.enum(subjectValues, { error: 'Please choose a subject from the list' }),
    message: z
      .string()
      .trim()
      .check(visibleText('Message', { multiline: true }))
      .min(1, 'Message is required')
      .max(CONTACT_MESSAGE_MAX, `Message must be at most ${CONTACT_MESSAGE_MAX} characters`),
  })
  .meta({ id: 'ContactRequest' });
export type ContactRequest = z.infer<typeof contactRequestSchema>;

export const contactResponseSchema = z.object({ id: z.string(), submittedAt: z.string() }).meta({ id: 'ContactResponse' });
export type ContactResponse = z.infer<typeof contactResponseSchema>;
