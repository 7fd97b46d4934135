import type { ComponentType } from 'react';

export interface AdminSection {
  /** Becomes the container's data-testid `admin-<id>` (e.g. 'moderation', 'map'). */
  id: string;
  /** The section heading, e.g. 'Content Moderation'. */
  title: string;
  /** Rendered only for a signed-in admin, under the heading. */
  Component: ComponentType;
}

/**
 * The sections of /admin, in display order. Each feature adds its own entry here when it ships
 * (spec section 2: Content Moderation, Map Status, Map Generation, Danger Zone).
 */
export const AdminSections: AdminSection[] = [];
