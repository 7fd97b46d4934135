import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { CONTACT_SUBJECTS, contactRequestSchema, type ContactRequest } from '@pixel-atlas/contracts/contact';
import { api } from '../api/client.ts';
import { PageContainer } from '../components/app-layout.tsx';
import { buttonClassName } from '../components/button-styles.ts';
import { FormField, inputClassName, TextField } from '../components/form-field.tsx';
import { PixelSelect } from '../components/pixel-select.tsx';
import { useToast } from '../hooks/use-toast.ts';
import { usePageMeta } from '../hooks/use-page-meta.ts';
import { firstErrorPerField, type FieldErrors } from '../lib/field-errors.ts';
import { SITE_NAME } from '../lib/site.ts';

type ContactForm = Record<keyof ContactRequest, string>;

const EMPTY_FORM: ContactForm = { name: '', email: '', subject: '', message: '' };

function validate(form: ContactForm): { data: ContactRequest } | { errors: FieldErrors<ContactRequest> } {
  const result = contactRequestSchema.safeParse(form);
  if (result.success) return { data: result.data };
  return { errors: firstErrorPerField(result.error) };
}

export function ContactPage() {
  usePageMeta(`Contact - ${SITE_NAME}`, `Questions about ${SITE_NAME}, your plot or a payment? Send us a message.`);
  const { toast } = useToast();
  const [form, setForm] = useState<ContactForm>(EMPTY_FORM);
  const [errors, setErrors] = useState<FieldErrors<ContactRequest>>({});

  const sendMessage = useMutation({
    mutationFn: (request: ContactRequest) => api.POST('/api/contact', { body: request }),
    onSuccess: () => {
      setForm(EMPTY_FORM);
      setErrors({});
      toast({ title: 'Message sent successfully!', description: "We'll get back to you within 24-48 hours." });
    },
    onError: (error) => {
      console.error('Contact form submission failed', error);
      toast({
        title: 'Error sending message',
        description: 'Please try again later or contact us directly via email.',
        variant: 'destructive',
      });
    },
  });

  const updateField = (field: keyof ContactForm, value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    // Once a field is edited, its old complaint no longer describes it.
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sendMessage.isPending) return;
    const result = validate(form);
    if ('errors' in result) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    sendMessage.mutate(result.data);
  };

  const sending = sendMessage.isPending;

  return (
    <PageContainer>
      <h1 className="text-lg text-gold md:text-2xl">Contact Us</h1>
      <p className="mt-4 text-ink-muted">
        Questions about your plot, a payment or a piece of content? Send us a message and we'll get back to you within 24-48 hours.
      </p>

      <div className="mt-10 grid gap-8 md:grid-cols-[1fr_16rem]">
        <form noValidate onSubmit={submit} className="pixel-panel grid gap-5 p-6" aria-label="Contact form">
          <TextField
            id="contact-name"
            label="Name"
            error={errors.name}
            name="name"
            autoComplete="name"
            value={form.name}
            onValueChange={(value) => updateField('name', value)}
          />

          <TextField
            id="contact-email"
            label="Email"
            error={errors.email}
            name="email"
            type="email"
            autoComplete="email"
            value={form.email}
            onValueChange={(value) => updateField('email', value)}
          />

          <FormField id="contact-subject" label="Subject" error={errors.subject}>
            {(control) => (
              <PixelSelect
                {...control}
                name="subject"
                value={form.subject}
                onValueChange={(value) => updateField('subject', value)}
                options={CONTACT_SUBJECTS}
                placeholder="Select a subject"
              />
            )}
          </FormField>

          <FormField id="contact-message" label="Message" error={errors.message}>
            {(control) => (
              <textarea
                {...control}
                name="message"
                rows={6}
                className={`${inputClassName} resize-y`}
                value={form.message}
                onChange={(event) => updateField('message', event.target.value)}
              />
            )}
          </FormField>

          <button type="submit" className={buttonClassName('primary', 'md', 'w-full sm:w-auto sm:justify-self-start')} disabled={sending}>
            {sending ? 'Sending...' : 'Send Message'}
          </button>
        </form>

        <aside aria-labelledby="contact-faq" className="pixel-panel h-fit p-6">
          <h2 id="contact-faq" className="text-xs text-gold">
            Quick answers
          </h2>
          <p className="mt-3 text-sm text-ink-muted">Claiming, tiers, payments and moderation are covered in the FAQ.</p>
          <Link to="/faq" className={buttonClassName('secondary', 'sm', 'mt-5 w-full')}>
            Visit FAQ
          </Link>
        </aside>
      </div>
    </PageContainer>
  );
}
