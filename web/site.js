// Links that organisers paste: copy a rule's absolute URL, keep the anchor (and the
// calculator's fields in the query) when switching language; every copied link also offers
// its QR code (qr.js, loaded on first use). Pages with a round clock or a blitz action timer
// load their script here (no engine is involved in either).
// Also the calculators' last resort when calc.js itself cannot load.

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

// `template` with its {placeholders} filled (a function replacement: "$&" in a value stays as typed).
export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

// Words of the QR code dialog, in the page's language (mkdocs_hook.site_words).
const words = document.getElementById("site-words")?.dataset ?? {};

// Show the QR code of `url`; `what` says what it points to.
export async function showQr(url, what) {
  const { openQr } = await import("./qr.js");
  openQr(url, what, words);
}

let toast = null;
let toastText = null;
let toastQr = null;
function announce(text, url, what) {
  if (!toast) {
    toast = document.createElement("div");
    toast.className = "link-toast";
    toast.setAttribute("role", "status");
    toastText = document.createElement("span");
    toastQr = document.createElement("button");
    toastQr.type = "button";
    toastQr.className = "md-button";
    toastQr.textContent = words.qrButton || "";
    toastQr.addEventListener("click", () => showQr(toastQr.dataset.url, toastQr.dataset.what));
    toast.append(toastText, " ", toastQr);
    // A toast someone is using (pointer or focus on its button) does not vanish under them.
    for (const type of ["pointerenter", "focusin"]) toast.addEventListener(type, () => clearTimeout(announce.timer));
    toast.addEventListener("focusout", hideLater);
    document.body.append(toast);
  }
  toastText.textContent = text;
  toastQr.hidden = !what || !words.qrButton;
  toastQr.dataset.url = url;
  toastQr.dataset.what = what || "";
  toast.hidden = false;
  hideLater();
}
function hideLater() {
  clearTimeout(announce.timer);
  announce.timer = setTimeout(() => { toast.hidden = true; }, 8000);
}

// Copy `url` and say so with `template` ("Link copied: {url}", in the page's language); with
// `what` (what the link points to), the message also offers the link's QR code.
export async function copyLink(url, template, what = "") {
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    // No clipboard permission: the address bar holds the link, ready to share.
  }
  announce(fill(template, { url }), url, what);
}

// What a heading or rule link points to, for its QR code: "Rule naruto-blitz-4: Blitz rules".
function describe(link) {
  const target = document.getElementById(link.getAttribute("href").slice(1));
  if (!target) return "";
  const textOf = (node) => [...node.childNodes].filter((n) => !(n.classList?.contains("headerlink"))).map((n) => n.textContent).join("").trim();
  if (/^H[1-6]$/.test(target.tagName)) return fill(words.qrHeading || "", { title: textOf(target) });
  let heading = null;
  for (const h of document.querySelectorAll("article h1[id], article h2[id], article h3[id]")) {
    if (h.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING) heading = h;
  }
  return fill(words.qrRule || "", { id: target.id, title: heading ? textOf(heading) : "" });
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
  copyLink(url.href, link.dataset.copied, describe(link));
});

if (document.querySelector(".clock")) import("./clock.js");
if (document.querySelector(".blitz-timer")) import("./blitz.js");
