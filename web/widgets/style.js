// A widget's own stylesheet, added once to the page (same origin: allowed by the CSP).
export function addStylesheet(url) {
  const href = new URL(url).href;
  if ([...document.querySelectorAll('link[rel="stylesheet"]')].some((link) => link.href === href)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.append(link);
}
