// Helpers shared by the page scripts (site.js, calc.js, clock.js, blitz.js): fill a message's
// {placeholders}, copy a link and say so, show a QR code. A module of its own, so that the page
// scripts import it and never each other.

// How long an engine start may go without progress before it is given up (calc.js): a phone on
// a bad network still sees bytes arrive; 30 s of nothing is a stalled or dead connection.
export const STALL_MS = 30_000;

// `template` with its {placeholders} filled (a function replacement: "$&" in a value stays as typed).
export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

// A heading's words, without its "¶" link control.
export function headingText(heading) {
  return [...heading.childNodes].filter((n) => !n.classList?.contains("headerlink")).map((n) => n.textContent).join("").trim();
}

// `texts` as the items of `list` (a <ul>), hidden when there are none.
export function showList(list, texts) {
  list.replaceChildren(...texts.map((text) => Object.assign(document.createElement("li"), { textContent: text })));
  list.hidden = !texts.length;
}

// Words of the QR code dialog, in the page's language (mkdocs_hook.site_words).
export const words = document.getElementById("site-words")?.dataset ?? {};

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
