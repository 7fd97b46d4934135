import { lazy, useState, type ComponentType } from 'react';

export type LazyComponent = ComponentType & { preload: () => Promise<unknown> };

/**
 * React.lazy for a named export, plus `preload()`. Once the module is in, a new mount renders it directly
 * instead of suspending for a tick (tests that preloaded, or a screen visited before). Each mount keeps the
 * component it started with: switching from the lazy wrapper to the loaded one would remount it and lose state.
 */
export function lazyComponent<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): LazyComponent {
  let loaded: ComponentType | undefined;
  const preload = () => load().then((module) => (loaded = module[name]));
  const Lazy = lazy<ComponentType>(() => preload().then((component) => ({ default: component })));
  function LazyComponent() {
    const [{ Component }] = useState(() => ({ Component: loaded ?? Lazy }));
    return <Component />;
  }
  LazyComponent.displayName = `Lazy(${name})`;
  return Object.assign(LazyComponent, { preload });
}
