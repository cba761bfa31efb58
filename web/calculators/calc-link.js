// The link's state of the calculators: fields restored from the page's URL (?<instance>.<field>=value,
// <instance> being the element id without "calc-"), the link values no control can show, the form's
// values as sent for a verdict, the address bar kept in step, and the links a user shares.
import { word } from "../shared/page-data.js";
import { fill, labelText, replaceQuery, showList, twice } from "../shared/share.js";
import { verdictsPending } from "./verdict.js";

let calculators = []; // the page's calculators (calc.js)
// Link values no control can show (a choice that is not one of the radios, a value over the
// field's limit): calculator element -> Map(field -> value), sent to Python for its error
// until the user sets that field.
const linkOnly = new Map();

export function mountLink(list) {
  calculators = list;
}

const instance = (el) => el.id.replace(/^calc-/, "");

// Longest field value carried in a link: whole decklists fit; a megabyte paste would make a URL
// browsers refuse to open (over 2 MB once encoded).
const MAX_LINK_VALUE = 10_000;

const tooLongForLink = (control) => control.value.length > MAX_LINK_VALUE;

// The fields worth putting in a link: typed text, and choices moved off their default.
function shared(el) {
  const pairs = [];
  for (const control of el.querySelectorAll("form [name]")) {
    if (control.type === "hidden") continue; // a preset: part of the instance
    if (tooLongForLink(control)) continue; // a huge paste stays out of the address bar
    if (control.type === "radio" ? control.checked && !control.defaultChecked : control.value.trim() !== "") {
      pairs.push([`${instance(el)}.${control.name}`, control.value]);
    }
  }
  return pairs;
}

export function linkTo(el) {
  const url = new URL(location.pathname, location.href);
  for (const [key, value] of shared(el)) url.searchParams.append(key, value);
  url.hash = el.id;
  return url.href;
}

// What a link to `el` leaves out, said to the one sharing it: each field too long for a link.
export function leftOut(el) {
  return [...el.querySelectorAll(".calc-field[data-field]")]
    // blank text is never in a link, however long: nothing is left out (review 3's test found it said so)
    .filter((box) => [...box.querySelectorAll("[name]")].some((c) => c.value.trim() !== "" && tooLongForLink(c)))
    .map((box) => fill(word("ui.share.left_out"), {
      field: box.querySelector("label, legend") ? labelText(box.querySelector("label, legend")) : box.dataset.field,
      limit: MAX_LINK_VALUE.toLocaleString(el.dataset.lang),
    }))
    .join(" ");
}

const isOurs = (key) => calculators.some((el) => key.startsWith(`${instance(el)}.`));

// Keep the address bar (and so the language switcher) in step with every calculator. One pass
// over the query whatever its size: a link with thousands of unknown keys stays cheap.
// Written once the keystroke's verdict is on screen (in a task of its own: the frame showing the
// verdict comes first), not before it: history.replaceState took ~2 ms of the page and more of the
// browser per keystroke, all of it before the verdict. Leaving the calculator, or the page, writes it
// at once; with no verdict coming (the engine still starting), it is written at once too.
let urlTimer = null;
const URL_LATEST_MS = 300; // a verdict that is on its way but does not come (an engine giving up)

export function syncUrlSoon() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(syncUrl, verdictsPending() ? URL_LATEST_MS : 0);
}

export function syncUrlAfterVerdict() {
  if (urlTimer !== null && !verdictsPending()) syncUrlSoon();
}

export function syncUrlNow() {
  if (urlTimer !== null) syncUrl();
}

function syncUrl() {
  clearTimeout(urlTimer);
  urlTimer = null;
  const kept = [...new URLSearchParams(location.search)].filter(([key]) => !isOurs(key));
  const params = new URLSearchParams(kept);
  for (const el of calculators) for (const [key, value] of shared(el)) params.append(key, value);
  replaceQuery(params);
}

// The link's values for each calculator, read in one pass over the query.
export function linkValues() {
  const found = new Map(calculators.map((el) => [el, new Map()]));
  const byInstance = new Map(calculators.map((el) => [instance(el), found.get(el)]));
  for (const [key, value] of new URLSearchParams(location.search)) {
    const dot = key.lastIndexOf(".");
    const values = byInstance.get(key.slice(0, dot));
    if (values && !values.has(key.slice(dot + 1))) values.set(key.slice(dot + 1), value); // the first, as everywhere
  }
  return found;
}

// A name the link gives twice is said above the form (share.js twice(): one rule for every tool).
export function showTwice(el) {
  const messages = twice(new URLSearchParams(location.search), `${instance(el)}.`);
  if (!messages.length) return;
  const list = Object.assign(document.createElement("ul"), { className: "calc-link-errors" });
  el.querySelector("form").before(list);
  showList(list, messages);
}

// Fill a calculator from the link it was opened with. What no control can show is kept for
// Python, whose verdict then names the field: a value over the field's limit (refused before
// the page touches it) or a choice that is none of the radios.
export function restore(el, values) {
  const pending = new Map();
  for (const [name, value] of values) {
    const box = el.querySelector(`.calc-field[data-field="${CSS.escape(name)}"]`);
    const controls = [...el.querySelectorAll("form [name]")].filter((c) => c.name === name && c.type !== "hidden");
    if (!box || !controls.length) continue; // not a field of this calculator (or a preset)
    if (controls[0].type === "radio") {
      const match = controls.find((radio) => radio.value === value);
      controls.forEach((radio) => { radio.checked = radio === match; });
      if (!match) pending.set(name, value);
    } else if (value.length > Number(box.dataset.maxLength)) {
      pending.set(name, value);
    } else {
      controls[0].value = value;
    }
  }
  linkOnly.set(el, pending);
  markPending(el);
}

// The user set `name` (typed, chose): a link value kept aside for it is dropped.
export function userSet(el, name) {
  if (linkOnly.get(el).delete(name)) markPending(el);
}

// The controls whose link value they do not show are marked (data-link-pending), for the widgets:
// a widget that writes a field must not replace such a value with its own (stored) state.
function markPending(el) {
  const pending = linkOnly.get(el);
  for (const control of el.querySelectorAll("form [name]")) control.toggleAttribute("data-link-pending", pending.has(control.name));
}

// The fields the current choices hide, as the build wrote Python's `hidden` for each combination
// of the choices it reads (data-hidden-by, sitebuild/render.py): a hidden field keeps its value on
// the page but is not sent, so that the build's tables answer what the judge sees.
const hiddenTables = new WeakMap();
export function hiddenByChoices(el) {
  if (!el.dataset.hiddenBy) return new Set();
  if (!hiddenTables.has(el)) hiddenTables.set(el, JSON.parse(el.dataset.hiddenBy));
  const { by, when } = hiddenTables.get(el);
  const chosen = {};
  for (const control of el.querySelector("form").elements) {
    if (by.includes(control.name) && (control.type === "hidden" || control.checked)) chosen[control.name] = control.value;
  }
  const key = by.map((name) => chosen[name] ?? "").join("|");
  return new Set(Object.hasOwn(when, key) ? when[key] : []);
}

// What the form submits (its named, enabled controls; checked ones only for choices; none the
// choices hide), read from the controls themselves: a FormData of a form holding a 60-line list
// cost ~5 ms a keystroke (bench (e)).
export function inputs(el) {
  const pending = linkOnly.get(el) || new Map();
  const hidden = hiddenByChoices(el);
  const values = Object.fromEntries([...pending].filter(([name]) => !hidden.has(name)));
  for (const control of el.querySelector("form").elements) {
    if (!control.name || control.disabled || pending.has(control.name) || hidden.has(control.name)) continue;
    if ((control.type === "radio" || control.type === "checkbox") && !control.checked) continue;
    values[control.name] = control.value;
  }
  return values;
}

// Nothing typed, no choice moved off its default, nothing from a link: no verdict to show yet.
export function isBlank(el) {
  if (linkOnly.get(el)?.size) return false;
  return [...el.querySelectorAll("form input:not([type=hidden]), form textarea")].every((control) =>
    control.type === "radio" ? control.checked === control.defaultChecked : control.value.trim() === "");
}
