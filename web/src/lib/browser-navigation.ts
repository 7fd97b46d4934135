/**
 * Full-page navigation to another origin or server route (the checkout page). One object, so tests
 * can replace `assign` instead of fighting jsdom's unimplemented navigation.
 */
export const browserNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
