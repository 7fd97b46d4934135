import { createContext, useContext, useEffect } from 'react';

/**
 * On the server (src/entry-server.tsx) effects never run: a screen's title and description are collected here during
 * the render instead, for the page's <head>.
 */
export interface PageHead {
  title?: string;
  description?: string;
}
export const PageHeadContext = createContext<((head: PageHead) => void) | null>(null);

/** Sets document.title and, when given, the meta description for the lifetime of a screen. */
export function usePageMeta(title: string, description?: string): void {
  useContext(PageHeadContext)?.({ title, description });

  useEffect(() => {
    document.title = title;
  }, [title]);

  useEffect(() => {
    if (description === undefined) return;
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.append(meta);
    }
    const previous = meta.content;
    meta.content = description;
    return () => {
      if (meta) meta.content = previous;
    };
  }, [description]);
}
