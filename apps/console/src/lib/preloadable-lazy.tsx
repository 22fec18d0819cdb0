import { type ComponentType, lazy, useState } from 'react';

/**
 * React.lazy that renders its component at once when the module has loaded already (preload() was called
 * early enough). React.lazy suspends on its first render even then, and React reveals suspended content at
 * most every 300 ms after a fallback was shown (react-dom's FALLBACK_THROTTLE_MS): on the dashboard every
 * lazy widget (a chart, a map's preview) appeared up to 300 ms after its data and code were in.
 */
export function preloadableLazy<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = (): Promise<ComponentType<P>> => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  // biome-ignore lint/correctness/noComponentHookFactories: called once per module at its top level, as React.lazy is
  function Preloadable(props: P) {
    // Chosen once per mount: turning from the lazy wrapper to the loaded component would mount it anew.
    const [Loaded] = useState(() => loaded);
    const Shown = (Loaded ?? Lazy) as ComponentType<P>;
    return <Shown {...props} />;
  }
  return { Component: Preloadable, preload };
}
