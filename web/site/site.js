// Links that organisers paste: copy a rule's absolute URL, keep the anchor (and the
// calculator's fields in the query) when switching language; every copied link also offers
// its QR code (qr.js, loaded on first use). Pages with a round clock or a blitz action timer
// load their script here (no engine is involved in either).
// Also the calculators' last resort when calc.js itself cannot load.
import { word } from "../shared/page-data.js";
import { ADDRESS_CHANGED, copyLink, STALL_MS } from "../shared/share.js";

// calc.js mounts the calculators (<html data-calc-mounted>). If its download fails or stalls, the
// calculators would say "Starting…" forever: say they could not start, and retry by reloading. A
// calc.js that ran without mounting them (an empty or cut answer from the host) is not the site's
// file: said as such at once.
const calcScript = document.querySelector('script[src$="calc/calculators/calc.js"]');
if (calcScript && document.querySelector(".calc[data-calc]")) {
  const giveUp = (damaged = false) => {
    if ("calcMounted" in document.documentElement.dataset) return;
    for (const el of document.querySelectorAll(".calc[data-calc]")) {
      el.dataset.state = "error";
      el.querySelector(".calc-status").textContent = word(damaged ? "ui.damaged" : "ui.failed");
      const retry = el.querySelector(".calc-retry");
      retry.hidden = false;
      retry.addEventListener("click", () => location.reload());
    }
    document.dispatchEvent(new Event("calc:engine"));
  };
  calcScript.addEventListener("error", () => giveUp());
  calcScript.addEventListener("load", () => giveUp(true)); // run to its end: mounted, unless damaged
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
addEventListener(ADDRESS_CHANGED, updateLanguageLinks);

// A tap or click on a heading's or rule's link control copies its absolute URL.
document.addEventListener("click", (event) => {
  const link = event.target.closest("a.rule-link, a.headerlink");
  if (!link || event.metaKey || event.ctrlKey || event.shiftKey) return;
  event.preventDefault();
  const url = new URL(link.getAttribute("href"), location.href);
  url.search = "";
  // A translated rule copied with its original open is shared open (originals.js opens it on arrival).
  const target = document.getElementById(url.hash.slice(1));
  if (target && document.querySelector(`details.og[data-for="${CSS.escape(target.id)}"]`)?.open) url.searchParams.set("original", target.id);
  history.replaceState(null, "", url.hash);
  updateLanguageLinks();
  copyLink(url.href, link.dataset.caption || ""); // its QR caption: sitebuild/rule_markup.py
});

if (document.querySelector(".clock")) import("../venue/clock.js");
if (document.querySelector(".blitz-timer")) import("../venue/blitz.js");
