import type { EditPlotContentResponse, ManagePage } from '@pixel-atlas/contracts/manage';
import { apiJson } from '../../lib/api.ts';

/** The owner page's data; the token is the key (a rotated token is another page). */
export function managePageQueryKey(token: string): readonly [string] {
  return [`/api/manage/${encodeURIComponent(token)}`];
}

export type { ManagePage };

export function editPlotContent(token: string, body: { message: string; link: string }): Promise<EditPlotContentResponse> {
  return apiJson<EditPlotContentResponse>('PATCH', `/api/manage/${encodeURIComponent(token)}`, body);
}

export function replaceAvatar(token: string, avatarDataUrl: string): Promise<{ plot: ManagePage['plot'] }> {
  return apiJson('PUT', `/api/manage/${encodeURIComponent(token)}/avatar`, { avatar_url: avatarDataUrl });
}

export function rotateOwnerLink(token: string): Promise<{ token: string }> {
  return apiJson('POST', `/api/manage/${encodeURIComponent(token)}/rotate`);
}
