import { useEffect, useState } from 'react';
import { detectTouchDevice } from '../engine/camera.ts';

/** Spec section 2: coarse pointer or narrower than 768 px; follows rotation and window resizes. */
export function useTouchDevice(): boolean {
  const [isTouch, setIsTouch] = useState(() => detectTouchDevice(window));
  useEffect(() => {
    const update = () => setIsTouch(detectTouchDevice(window));
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, []);
  return isTouch;
}
