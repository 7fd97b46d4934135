import type { ComponentType } from 'react';
import { PasskeysSection } from '../../features/admin-auth/passkeys-section.tsx';
import { LinkHealthSection } from '../../features/link-health/link-health-section.tsx';
import { ModerationSection } from '../../features/moderation/moderation-section.tsx';
import { TopPlotsSection } from '../../features/stats/top-plots-section.tsx';
import { DangerZone, MapGeneration, MapStatus, useMapExists } from './map-sections.tsx';

export interface AdminSection {
  /** Becomes the container's data-testid `admin-<id>` (e.g. 'moderation', 'map'). */
  id: string;
  /** The section heading, e.g. 'Content Moderation'. */
  title: string;
  /** Rendered only for a signed-in admin, under the heading. */
  Component: ComponentType;
  /** A hook deciding whether the section shows at all (e.g. Danger Zone only when a map exists). */
  useIsVisible?: () => boolean;
}

/**
 * The sections of /admin, in display order. Each feature adds its own entry here when it ships
 * (spec section 2: Content Moderation, Map Status, Map Generation, Danger Zone).
 */
export const AdminSections: AdminSection[] = [
  { id: 'moderation', title: 'Content Moderation', Component: ModerationSection },
  { id: 'link-health', title: 'Link Health', Component: LinkHealthSection },
  { id: 'top-plots', title: 'Top Plots', Component: TopPlotsSection },
  { id: 'map', title: 'Map Status', Component: MapStatus },
  { id: 'map-generation', title: 'Map Generation', Component: MapGeneration },
  { id: 'danger-zone', title: 'Danger Zone', Component: DangerZone, useIsVisible: useMapExists },
  { id: 'passkeys', title: 'Passkeys', Component: PasskeysSection },
];
