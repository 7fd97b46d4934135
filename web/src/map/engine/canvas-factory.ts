/** Offscreen drawing surfaces. Behind an interface so tests (jsdom has no canvas) can stub them. */
export interface Surface {
  width: number;
  height: number;
  getContext(kind: '2d', settings?: CanvasRenderingContext2DSettings): CanvasRenderingContext2D | null;
}

export type CanvasFactory = (width: number, height: number) => Surface & CanvasImageSource;

export const browserCanvasFactory: CanvasFactory = (width, height) => {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
};
