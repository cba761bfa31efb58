// Mounts the calculators of a page (forms rendered at build time) and runs them in a
// Web Worker. Pages without a calculator load no engine byte. Verdicts are written with
// textContent only. Each calculator exposes data-state (loading | ready | error) and,
// after each evaluation, data-result (the verdict's machine result as JSON), and fires a
// "calc:verdict" event (detail: the verdict) that optional widgets (data-widget) listen to.
// Fields round-trip through the page URL as ?<instance>.<field>=value, where <instance>
// is the element id without "calc-" (naruto-rounds, naruto-tiebreak-blitz).
import { copyLink, showQr } from "./site.js";

const calculators = [...document.querySelectorAll(".calc[data-calc]")];
const latest = new Map(); // calculator element -> seq of its latest request
const waiting = new Map(); // seq -> calculator element
let worker = null;
let seq = 0;
let loggedInternal = false;

function setState(el, state) {
  el.dataset.state = state;
  const status = el.querySelector(".calc-status");
  const retry = el.querySelector(".calc-retry");
  if (state === "ready") status.textContent = el.dataset.msgReady;
  if (state === "error") status.textContent = el.dataset.msgFailed;
  retry.hidden = state !== "error";
}

function onEngineMessage(data) {
  if (data.type === "ready") {
    document.documentElement.dataset.engineStart = data.start; // "snapshot" | "full" (engine-snapshot.js)
    calculators.forEach((el) => { setState(el, "ready"); evaluate(el, false); });
    document.dispatchEvent(new Event("calc:engine"));
  } else if (data.type === "snapshot-stored") {
    document.documentElement.dataset.engineSnapshot = "stored";
  } else if (data.type === "failed") {
    console.error("calculator engine failed:", data.detail);
    calculators.forEach((el) => setState(el, "error"));
    document.dispatchEvent(new Event("calc:engine"));
  } else {
    const el = waiting.get(data.seq);
    waiting.delete(data.seq);
    if (el && latest.get(el) === data.seq) {
      data.type === "verdict" ? render(el, data.verdict) : internal(el, data.detail);
    }
  }
}

async function startEngine() {
  if (worker) worker.terminate();
  waiting.clear();
  calculators.forEach((el) => { el.dataset.state = "loading"; });
  // Imported here, not at the top: importing it starts an engine, and a page without a calculator
  // loads no engine byte. Pages with one have it preloaded from <head>.
  const { takeEngine } = await import("./engine-start.js");
  const engine = takeEngine();
  worker = engine.worker;
  worker.onmessage = ({ data }) => onEngineMessage(data);
  worker.onerror = (event) => {
    event.preventDefault();
    onEngineMessage({ type: "failed", detail: event.message || "worker error" });
  };
  engine.early.forEach(onEngineMessage);
}

const instance = (el) => el.id.replace(/^calc-/, "");

// Longest field value carried in a link: whole decklists fit; a megabyte paste would make a URL
// browsers refuse to open (over 2 MB once encoded).
const MAX_LINK_VALUE = 10_000;

// The fields worth putting in a link: typed text, and choices moved off their default.
function shared(el) {
  const pairs = [];
  for (const control of el.querySelectorAll("form [name]")) {
    if (control.type === "hidden") continue; // a preset: part of the instance
    if (control.value.length > MAX_LINK_VALUE) continue; // a huge paste stays out of the address bar
    if (control.type === "radio" ? control.checked && !control.defaultChecked : control.value.trim() !== "") {
      pairs.push([`${instance(el)}.${control.name}`, control.value]);
    }
  }
  return pairs;
}

function linkTo(el) {
  const url = new URL(location.pathname, location.href);
  for (const [key, value] of shared(el)) url.searchParams.append(key, value);
  url.hash = el.id;
  return url.href;
}

// Keep the address bar (and so the language switcher) in step with every calculator.
function syncUrl() {
  const params = new URLSearchParams(location.search);
  for (const el of calculators) {
    for (const key of [...params.keys()]) if (key.startsWith(`${instance(el)}.`)) params.delete(key);
    for (const [key, value] of shared(el)) params.append(key, value);
  }
  const query = params.toString();
  history.replaceState(history.state, "", `${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
  dispatchEvent(new Event("calc:url"));
}

// Fill a calculator from the link it was opened with.
function restore(el) {
  const prefix = `${instance(el)}.`;
  for (const [key, value] of new URLSearchParams(location.search)) {
    if (!key.startsWith(prefix)) continue;
    const name = key.slice(prefix.length);
    for (const control of el.querySelectorAll("form [name]")) {
      if (control.name !== name || control.type === "hidden") continue;
      if (control.type === "radio") control.checked = control.value === value;
      else control.value = value;
    }
  }
}

function inputs(el) {
  const values = {};
  for (const [name, value] of new FormData(el.querySelector("form"))) values[name] = String(value);
  return values;
}

// Wording that depends on a choice (data-when-field/value, e.g. a question per match format):
// show the variant of the current choice. Presentation only: it works before the engine starts.
// Reads the checked choices only: FormData also reads text areas, which after a DOM change forces
// a layout of the whole page (measured ~14-38 ms under a 4x CPU slowdown on each of the shame
// tracker's inputs, the longest start-up task on /judge-tower/).
function applyChoices(el) {
  const chosen = {};
  for (const radio of el.querySelectorAll("form input[type=radio]:checked")) chosen[radio.name] = radio.value;
  for (const node of el.querySelectorAll("[data-when-field]")) {
    node.hidden = chosen[node.dataset.whenField] !== node.dataset.whenValue;
  }
}

function isBlank(el) {
  return [...el.querySelectorAll("form input:not([type=hidden]):not([type=radio]), form textarea")]
    .every((control) => control.value.trim() === "");
}

// Ask the engine for a verdict. `always` is false on start-up: an untouched form stays quiet.
function evaluate(el, always = true) {
  if (el.dataset.state !== "ready") return;
  if (!always && isBlank(el)) return;
  seq += 1;
  latest.set(el, seq);
  waiting.set(seq, el);
  worker.postMessage({ type: "eval", seq, calc: el.dataset.calc, inputs: inputs(el), lang: el.dataset.lang });
}

function clearErrors(el) {
  for (const box of el.querySelectorAll(".calc-error")) {
    box.hidden = true;
    box.textContent = "";
  }
  for (const control of el.querySelectorAll("[aria-invalid]")) control.removeAttribute("aria-invalid");
  for (const control of el.querySelectorAll("[data-error-for]")) {
    control.setAttribute("aria-describedby", control.dataset.describedby || "");
    delete control.dataset.errorFor;
  }
}

function showError(el, field, message) {
  const box = el.querySelector(`[data-field="${CSS.escape(field)}"] .calc-error`);
  if (!box) return false;
  box.textContent = message;
  box.hidden = false;
  const controls = el.querySelectorAll(`[data-field="${CSS.escape(field)}"] input, [data-field="${CSS.escape(field)}"] textarea`);
  for (const control of controls) {
    control.setAttribute("aria-invalid", "true");
    if (control.dataset.describedby === undefined) control.dataset.describedby = control.getAttribute("aria-describedby") || "";
    control.dataset.errorFor = field;
    control.setAttribute("aria-describedby", `${control.dataset.describedby} ${box.id}`.trim());
  }
  return true;
}

function render(el, verdict) {
  const summary = el.querySelector(".calc-summary");
  const details = el.querySelector(".calc-details");
  clearErrors(el);
  details.replaceChildren();
  summary.textContent = "";
  for (const box of el.querySelectorAll(".calc-field[data-field]")) {
    box.hidden = verdict.hidden_fields.includes(box.dataset.field);
  }
  if (verdict.ok) {
    summary.textContent = verdict.summary;
    for (const line of verdict.details) {
      const item = document.createElement("li");
      item.textContent = line;
      details.append(item);
    }
    el.dataset.result = JSON.stringify(verdict.result);
  } else {
    const unplaced = verdict.errors.filter((error) => !showError(el, error.field, error.message));
    summary.textContent = unplaced.map((error) => error.message).join(" ");
    el.dataset.result = "null";
  }
  el.dispatchEvent(new CustomEvent("calc:verdict", { detail: verdict }));
}

function internal(el, detail) {
  if (!loggedInternal) console.error("calculator internal error:", detail);
  loggedInternal = true;
  clearErrors(el);
  el.querySelector(".calc-details").replaceChildren();
  el.querySelector(".calc-summary").textContent = el.dataset.msgInternal;
  el.dataset.result = "null";
}

if (calculators.length) {
  for (const el of calculators) {
    const form = el.querySelector("form");
    restore(el);
    applyChoices(el);
    form.addEventListener("input", (event) => {
      applyChoices(el);
      evaluate(el);
      if (!event.detail?.initial) syncUrl(); // a widget filling its field at start-up is no change to share
    });
    form.addEventListener("submit", (event) => event.preventDefault());
    const share = el.querySelector(".calc-share");
    const title = el.querySelector(".calc-title").textContent;
    share.addEventListener("click", () => copyLink(linkTo(el), share.dataset.copied, title));
    el.querySelector(".calc-qr").addEventListener("click", () => showQr(linkTo(el), title));
    el.querySelector(".calc-retry").addEventListener("click", startEngine);
    if (el.dataset.widget) {
      import(new URL(`widgets/${el.dataset.widget}.js`, import.meta.url)).then((widget) => widget.mount(el));
    }
  }
  startEngine();
}
