import { api, dataOf } from '../../api/client.ts';

export function editPlotContent(token: string, body: { message: string; link: string }) {
  return dataOf(api.PATCH('/api/manage/{token}', { params: { path: { token } }, body }));
}

export function replaceAvatar(token: string, avatarDataUrl: string) {
  return dataOf(api.PUT('/api/manage/{token}/avatar', { params: { path: { token } }, body: { avatar_url: avatarDataUrl } }));
}

export function rotateOwnerLink(token: string) {
  return dataOf(api.POST('/api/manage/{token}/rotate', { params: { path: { token } } }));
}
