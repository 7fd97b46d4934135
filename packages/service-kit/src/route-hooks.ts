/**
 * A route's hook list (`onRequest`, `onSend`, …) as an `onRoute` hook finds it (absent, one function or a list), with
 * `hook` run after the ones it already has.
 */
export function withRouteHook<H>(existing: H | H[] | undefined, hook: NoInfer<H>): H[] {
  if (existing === undefined) return [hook];
  return Array.isArray(existing) ? [...existing, hook] : [existing, hook];
}
