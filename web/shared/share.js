// Helpers shared by the page scripts (site.js, calc.js, clock.js, blitz.js): fill a message's
// {placeholders}, keep the address in step, copy a link and say so, show a QR code. A module of its own, so that the page
// scripts import it and never each other.

import { word } from "./page-data.js";

// How long an engine start may go without progress before it is given up (calc-engine.js): a phone on
// a bad network still sees bytes arrive; 30 s of nothing is a stalled or dead connection.
export const STALL_MS = 30_000;

// Whether a count takes the singular in the page's language: the platform's CLDR rule, the one
// calculators.i18n.singular() restates (French: below 2; English and Italian: 1).
const plural = new Intl.PluralRules(document.documentElement.lang || undefined);
// A number as calculators.i18n.Count writes it: the language's decimal and thousands separators,
// grouped as CLDR's default ("1,000", « 1 000 », Italian "1000" but "10.000"), a minus sign.
const numeral = new Intl.NumberFormat(document.documentElement.lang || undefined);

// `template` with its {placeholders} filled (a function replacement: "$&" in a value stays as typed);
// {n:card|cards} is the singular or the plural form for the count n.
export function fill(template, values) {
  return template.replace(/\{(\w+)(?::([^{}|]*)\|([^{}]*))?\}/g, (whole, name, one, other) => {
    if (!(name in values)) return whole;
    const value = values[name];
    if (one !== undefined) return plural.select(Number(value)) === "one" ? one : other;
    return typeof value === "number" ? numeral.format(value).replace("-", "\u2212") : String(value);
  });
}

// The event that says a script changed the page's address (site.js keeps the language menu's
// links in step with it).
export const ADDRESS_CHANGED = "address-changed";

// The address's query made `params` (nothing when empty; the anchor kept), and said.
export function replaceQuery(params) {
  const query = params.toString();
  history.replaceState(history.state, "", `${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
  dispatchEvent(new Event(ADDRESS_CHANGED));
}

// An element's words without its children of class `skip`: a heading without its "¶" link control, a
// field's label as an error names it, without the form's "(optional)" (sitebuild/render.py optional_marker).
function textWithout(element, skip) {
  return [...element.childNodes].filter((n) => !n.classList?.contains(skip)).map((n) => n.textContent).join("").trim();
}
export const headingText = (heading) => textWithout(heading, "headerlink");
export const labelText = (label) => textWithout(label, "field-optional");

// `texts` as the items of `list` (a <ul>), hidden when there are none.
export function showList(list, texts) {
  list.replaceChildren(...texts.map((text) => Object.assign(document.createElement("li"), { textContent: text })));
  list.hidden = !texts.length;
}


// One rule for a link that gives a value twice, in every tool (the clock's reader, the blitz timer,
// the calculators): the first value is used, and said: one message per repeated name under `prefix`
// (but those that are lists, `repeatable`).
export function twice(params, prefix, repeatable = []) {
  const names = new Set([...params.keys()].filter((name) =>
    name.startsWith(prefix) && !repeatable.includes(name) && params.getAll(name).length > 1));
  return [...names].map((name) => fill(word("ui.share.twice"), { name }));
}

// Show the QR code of `url`; `what` says what it points to, `note` what the link leaves out.
export async function showQr(url, what, note = "") {
  const { openQr } = await import("./qr.js");
  openQr(url, what, note);
}

let toast = null;
let toastText = null;
let toastLink = null;
let toastQr = null;
function announce(text, url, what, { note = "", failed = false } = {}) {
  if (!toast) {
    toast = document.createElement("div");
    toast.className = "link-toast";
    toast.setAttribute("role", "status");
    toastText = document.createElement("span");
    // The link itself, ready to select, when it could not be copied.
    toastLink = document.createElement("input");
    toastLink.type = "text";
    toastLink.readOnly = true;
    toastLink.className = "link-toast-url";
    toastLink.setAttribute("aria-label", word("ui.share.link"));
    toastQr = document.createElement("button");
    toastQr.type = "button";
    toastQr.className = "md-button";
    toastQr.textContent = word("ui.qr.button");
    toastQr.addEventListener("click", () => {
      toast.hidden = true; // the dialog takes over; the toast would stay over the page's controls
      showQr(toastQr.dataset.url, toastQr.dataset.what, toastQr.dataset.note);
    });
    toast.append(toastText, " ", toastLink, " ", toastQr);
    // A toast someone is using (pointer or focus on its button) does not vanish under them.
    for (const type of ["pointerenter", "focusin"]) toast.addEventListener(type, () => clearTimeout(announce.timer));
    for (const type of ["pointerleave", "focusout"]) toast.addEventListener(type, hideLater);
    document.body.append(toast);
  }
  withBreaks(toastText, note ? `${text} ${note}` : text, url);
  toastLink.hidden = !failed;
  toastLink.value = failed ? url : "";
  toastQr.hidden = !what;
  toastQr.dataset.url = url;
  toastQr.dataset.what = what || "";
  toastQr.dataset.note = note;
  toast.hidden = false;
  if (failed) {
    toastLink.focus();
    toastLink.select();
  } else {
    hideLater();
  }
}
// Long enough to read a link on a phone; the next tap elsewhere puts it away sooner.
const TOAST_MS = 20_000;
function hideLater() {
  clearTimeout(announce.timer);
  announce.timer = setTimeout(() => { toast.hidden = true; }, TOAST_MS);
}
addEventListener("pointerdown", (event) => {
  if (toast && !toast.hidden && !toast.contains(event.target)) toast.hidden = true;
}, true);

// `text` into `node`, the `url` inside it breakable after its separators only (/ ? & = # . -), never
// in the middle of a word (the CSS breaks a piece only if it cannot fit a line on its own).
function withBreaks(node, text, url) {
  const at = url ? text.indexOf(url) : -1;
  if (at < 0) {
    node.textContent = text;
    return;
  }
  const pieces = url.split(/(?<=[/?&=#.-])/).flatMap((piece) => [piece, document.createElement("wbr")]);
  node.replaceChildren(text.slice(0, at), ...pieces, text.slice(at + url.length));
}

// Copy `url` and say so ("Link copied: {url}", in the page's language); with
// `what` (what the link points to), the message also offers the link's QR code; `note` says what
// the link leaves out. No clipboard (a plain-http venue network, a refused permission): it says so,
// never "copied", and shows the link selected, to copy by hand.
export async function copyLink(url, what = "", note = "") {
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    announce(word("ui.share.copy_failed") || url, url, what, { note, failed: true });
    return;
  }
  announce(fill(word("ui.link_copied"), { url }), url, what, { note });
}
