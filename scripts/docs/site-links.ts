// The links of the site's header, on the guide pages (theme/SiteLinks.astro) and above the API reference
// (reference.ts): one navigation across the guides, the reference and the events.
export const SITE_LINKS = [
  { label: 'Guides', href: '/guides/getting-started/' },
  { label: 'API reference', href: '/reference/' },
  { label: 'Simulation API', href: '/reference/simulation/' },
  { label: 'Events', href: '/events/' },
  { label: 'Changelog', href: '/changelog/' },
] as const;
