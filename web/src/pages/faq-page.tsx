import * as Accordion from '@radix-ui/react-accordion';
import { Link } from 'react-router';
import { PageContainer } from '../components/app-layout.tsx';
import { buttonClassName } from '../components/button-styles.ts';
import { usePageMeta } from '../hooks/use-page-meta.ts';
import { SITE_NAME } from '../lib/site.ts';
import { FAQ_CATEGORIES } from './faq/faq-content.tsx';

export function FaqPage() {
  usePageMeta(`FAQ - ${SITE_NAME}`, `Answers about claiming plots, tiers, payment, the map and moderation on ${SITE_NAME}.`);

  return (
    <PageContainer>
      <h1 className="text-lg text-gold md:text-2xl">Frequently Asked Questions</h1>
      <p className="mt-4 text-ink-muted">Everything about claiming, exploring and keeping {SITE_NAME} a good place.</p>

      {FAQ_CATEGORIES.map((category) => (
        <section key={category.id} aria-labelledby={`faq-${category.id}`} className="mt-10">
          <h2 id={`faq-${category.id}`} className="mb-4 text-sm text-gold">
            {category.title}
          </h2>
          {/* type="multiple": opening one answer never closes another. */}
          <Accordion.Root type="multiple" className="space-y-3">
            {category.items.map((item) => (
              <Accordion.Item key={item.id} value={item.id} className="pixel-panel">
                <Accordion.Header asChild>
                  <h3>
                    <Accordion.Trigger className="group flex min-h-11 w-full items-center justify-between gap-4 px-4 py-3 text-left font-sans text-base font-semibold text-ink hover:text-gold">
                      {item.question}
                      <span aria-hidden="true" className="font-pixel text-xs transition-transform group-data-[state=open]:rotate-45">
                        +
                      </span>
                    </Accordion.Trigger>
                  </h3>
                </Accordion.Header>
                <Accordion.Content className="accordion-content overflow-hidden">
                  <div className="prose-legal border-t-2 border-border px-4 pt-4 pb-1">{item.answer}</div>
                </Accordion.Content>
              </Accordion.Item>
            ))}
          </Accordion.Root>
        </section>
      ))}

      <aside aria-labelledby="faq-more" className="pixel-panel mt-14 p-6 text-center">
        <h2 id="faq-more" className="text-sm text-gold">
          Still have questions?
        </h2>
        <p className="mt-3 text-ink-muted">Send us a message and we'll get back to you within 24-48 hours.</p>
        <Link to="/contact" className={buttonClassName('primary', 'md', 'mt-5')}>
          Contact Us
        </Link>
      </aside>
    </PageContainer>
  );
}
