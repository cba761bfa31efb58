// Links that organisers paste: copy a rule's absolute URL, keep the anchor (and the
// calculator's fields in the query) when switching language. Also the calculators' last resort
// when calc.js itself cannot load.

// How long an engine start may go without progress before it is given up (calc.js): a phone on
// a bad network still sees bytes arrive; 30 s of nothing is a stalled or dead connection.
export const STALL_MS = 30_000;

// calc.js mounts the calculators (<html data-calc-mounted>). If its download fails or stalls, the
// calculators would say "Starting…" forever: say they could not start, and retry by reloading.
const calcScript = document.querySelector('script[src$="calc/calc.js"]');
if (calcScript && document.querySelector(".calc[data-calc]")) {
  const giveUp = () => {
    if ("calcMounted" in document.documentElement.dataset) return;
    for (const el of document.querySelectorAll(".calc[data-calc]")) {
      el.dataset.state = "error";
      el.querySelector(".calc-status").textContent = el.dataset.msgFailed;
      const retry = el.querySelector(".calc-retry");
      retry.hidden = false;
      retry.addEventListener("click", () => location.reload());
    }
    document.dispatchEvent(new Event("calc:engine"));
  };
  calcScript.addEventListener("error", giveUp);
  setTimeout(giveUp, STALL_MS);
}

// The language menu points at the same page in each language: carry the query and the
// anchor along, so /fr/naruto/#naruto-reserve-limits becomes /it/naruto/#naruto-reserve-limits.
function updateLanguageLinks() {
  for (const link of document.querySelectorAll(".md-select__link[hreflang]")) {
    const target = new URL(link.getAttribute("href"), location.href);
    target.search = location.search;
    target.hash = location.hash;
    link.href = target.href;
  }
}
updateLanguageLinks();
addEventListener("hashchange", updateLanguageLinks);
addEventListener("calc:url", updateLanguageLinks);

let toast = null;
function announce(text) {
  if (!toast) {
    toast = document.createElement("p");
    toast.className = "link-toast";
    toast.setAttribute("role", "status");
    document.body.append(toast);
  }
  toast.textContent = text;
  toast.hidden = false;
  clearTimeout(announce.timer);
  announce.timer = setTimeout(() => { toast.hidden = true; }, 4000);
}

// Copy `url` and say so with `template` ("Link copied: {url}", in the page's language).
export async function copyLink(url, template) {
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    // No clipboard permission: the address bar holds the link, ready to share.
  }
  announce(template.replace("{url}", url));
}

// A tap or click on a heading's or rule's link control copies its absolute URL.
document.addEventListener("click", (event) => {
  const link = event.target.closest("a.rule-link, a.headerlink");
  if (!link || event.metaKey || event.ctrlKey || event.shiftKey) return;
  event.preventDefault();
  const url = new URL(link.getAttribute("href"), location.href);
  url.search = "";
  history.replaceState(null, "", url.hash);
  updateLanguageLinks();
  copyLink(url.href, link.dataset.copied);
});
