// Mounts the calculators of a page (forms rendered at build time) and runs them in a
// Web Worker. Pages without a calculator load no engine byte. Verdicts are written with
// textContent only. Each calculator exposes data-state (loading | ready | error) and,
// after each evaluation, data-result (the verdict's machine result as JSON), and fires a
// "calc:verdict" event (detail: the verdict) that optional widgets (data-widget) listen to.
// Fields round-trip through the page URL as ?<instance>.<field>=value, where <instance>
// is the element id without "calc-" (naruto-rounds, naruto-tiebreak-blitz).
import { copyLink, fill, showList, showQr, STALL_MS, twice, words } from "./share.js";

const calculators = [...document.querySelectorAll(".calc[data-calc]")];
const latest = new Map(); // calculator element -> seq of its latest request
const waiting = new Map(); // seq -> calculator element
// Link values no control can show (a choice that is not one of the radios, a value over the
// field's limit): calculator element -> Map(field -> value), sent to Python for its error
// until the user sets that field.
const linkOnly = new Map();
// Fields the user has answered or changed (typed, chosen, or given by the link): until then an
// answer the verdict still needs (error code "required"/"needed") is a neutral note, not an error.
const touched = new Map(); // calculator element -> Set of field names
let worker = null;
let seq = 0;
let loggedInternal = false;
let stall = null; // the watchdog's timer
let starting = false; // a start is under way (cleared by "ready" and "failed")
const downloading = new Set(); // "wasm" (the page's), "worker" (the worker's files): what the watchdog watches
let restartedAfterDamage = false;
let startModuleFailed = false; // a failed module stays failed in this page: retry by reloading it
// A start that failed because a request got no answer (a dropped connection, a worker that could
// not load) is tried once more before the error shows: a venue's network drops a request now and
// then. So is one that failed on what the server sent (bytes that do not match the build, or a
// file that would not run: worker.js `failure`), asking every file again past the caches
// (`fresh`). Not when the server answered with an error status (the same answer again), nor after
// a stall (that has waited STALL_MS already).
let retriedUnseen = false;
let retryFresh = false; // the last failure was on what the server sent: the next start asks past the caches

// `damaged`: the error says that the server keeps sending files that are not the site's.
function setState(el, state, damaged = false) {
  el.dataset.state = state;
  const status = el.querySelector(".calc-status");
  const retry = el.querySelector(".calc-retry");
  const failed = damaged ? el.dataset.msgDamaged : el.dataset.msgFailed;
  status.textContent = { loading: el.dataset.msgLoading, ready: el.dataset.msgReady, error: failed }[state];
  el.querySelector(".calc-progress")?.remove(); // a start's progress shows again with its next bytes
  // A retry in progress keeps its button in view, disabled: one click restarts the engine once.
  retry.hidden = state === "ready" || (state === "loading" && retry.hidden);
  retry.disabled = state === "loading";
}

// A download that makes no progress for STALL_MS has stalled: the start ends in the error and its
// retry, never in an endless "Starting…". Once every file has arrived the watchdog stops: what
// remains is the phone's CPU starting Python, slow on a slow phone but not stalled.
function watchStart() {
  clearTimeout(stall);
  stall = downloading.size
    ? setTimeout(() => onEngineMessage({ type: "failed", stalled: true, detail: `no download progress for ${STALL_MS / 1000} s` }), STALL_MS)
    : null;
}

function arrived(part) {
  downloading.delete(part);
  if (starting) watchStart();
}

// The download's share as a bar and a sentence under each calculator that is still starting.
function showProgress({ done, total }) {
  // (The worker also beats while Python starts, after its last byte: that is no download.)
  if (!total || !downloading.has("worker")) return;
  const percent = Math.min(99, Math.floor((done * 100) / total)); // 100 is "ready"
  for (const el of calculators) {
    if (el.dataset.state !== "loading") continue;
    const status = el.querySelector(".calc-status");
    let bar = el.querySelector(".calc-progress");
    if (!bar) {
      bar = Object.assign(document.createElement("progress"), { className: "calc-progress", max: 100 });
      bar.setAttribute("aria-labelledby", status.id || (status.id = `${el.id}-status`));
      status.after(bar);
    }
    bar.value = percent;
    // An integer below 100 has the same digits in every language of the site: fill() writes it as is, no
    // ICU formatter (toLocaleString) is set up while the page starts (~20 ms of its main thread, ~80 at 4x CPU).
    status.textContent = fill(el.dataset.msgDownloading, { percent });
  }
}

function onEngineMessage(data) {
  if (data.type === "progress") {
    showProgress(data);
    if (starting) watchStart();
  } else if (data.type === "downloaded") {
    arrived("worker");
    // Every byte here: what remains is the phone starting Python, "Starting the calculator…".
    for (const el of calculators) if (el.dataset.state === "loading") setState(el, "loading");
  } else if (data.type === "ready") {
    starting = false;
    clearTimeout(stall);
    document.documentElement.dataset.engineStart = data.start; // "snapshot" | "full" (worker.js)
    calculators.forEach((el) => { setState(el, "ready"); evaluate(el, false); });
    document.dispatchEvent(new Event("calc:engine"));
  } else if (data.type === "snapshot-stored") {
    document.documentElement.dataset.engineSnapshot = "stored";
  } else if (data.type === "engine-damaged") {
    // A restored snapshot went wrong after "ready": the worker dropped it; one full start heals it.
    if (!restartedAfterDamage) {
      restartedAfterDamage = true;
      startEngine();
    }
  } else if (data.type === "failed") {
    starting = false;
    clearTimeout(stall);
    if (worker) worker.terminate(); // a stalled start must not turn "ready" behind the error
    worker = null;
    retryFresh = Boolean(data.damaged || data.suspect);
    if (!data.stalled && (data.damaged || !data.answered) && !startModuleFailed && !retriedUnseen) {
      retriedUnseen = true;
      console.warn("calculator engine failed, starting once more:", data.detail);
      startEngine();
      return;
    }
    console.error("calculator engine failed:", data.detail);
    calculators.forEach((el) => setState(el, "error", Boolean(data.damaged)));
    document.dispatchEvent(new Event("calc:engine"));
  } else {
    const el = waiting.get(data.seq);
    waiting.delete(data.seq);
    if (el && latest.get(el) === data.seq) {
      data.type === "verdict" ? render(el, data.verdict) : internal(el, data.detail);
    }
    syncUrlAfterVerdict();
  }
}

async function startEngine() {
  if (worker) worker.terminate();
  worker = null;
  waiting.clear();
  calculators.forEach((el) => setState(el, "loading"));
  starting = true;
  downloading.clear();
  downloading.add("wasm").add("worker");
  watchStart();
  // Imported here, not at the top: importing it starts an engine, and a page without a calculator
  // loads no engine byte. Pages with one have it preloaded from <head>.
  let engine;
  try {
    const { takeEngine } = await import("./engine-start.js");
    engine = takeEngine({ fresh: retryFresh });
  } catch (error) {
    startModuleFailed = true;
    onEngineMessage({ type: "failed", detail: `engine-start.js: ${error.message || error}` });
    return;
  }
  if (!starting) { // the watchdog gave up while the module was on its way
    engine.worker.terminate();
    return;
  }
  worker = engine.worker;
  // The page's own download of the wasm (engine-start.js; none on a first visit, where the worker
  // downloads it and reports its progress).
  engine.wasm.then(() => { if (worker === engine.worker) arrived("wasm"); });
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

function linkTo(el) {
  const url = new URL(location.pathname, location.href);
  for (const [key, value] of shared(el)) url.searchParams.append(key, value);
  url.hash = el.id;
  return url.href;
}

// What a link to `el` leaves out, said to the one sharing it: each field too long for a link.
function leftOut(el) {
  return [...el.querySelectorAll(".calc-field[data-field]")]
    .filter((box) => [...box.querySelectorAll("[name]")].some(tooLongForLink))
    .map((box) => fill(words.shareLeftOut || "", {
      field: box.querySelector("label, legend")?.textContent.trim() ?? box.dataset.field,
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

function syncUrlSoon() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(syncUrl, waiting.size ? URL_LATEST_MS : 0);
}

function syncUrlAfterVerdict() {
  if (urlTimer !== null && !waiting.size) syncUrlSoon();
}

function syncUrlNow() {
  if (urlTimer !== null) syncUrl();
}

function syncUrl() {
  clearTimeout(urlTimer);
  urlTimer = null;
  const kept = [...new URLSearchParams(location.search)].filter(([key]) => !isOurs(key));
  const params = new URLSearchParams(kept);
  for (const el of calculators) for (const [key, value] of shared(el)) params.append(key, value);
  const query = params.toString();
  history.replaceState(history.state, "", `${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
  dispatchEvent(new Event("calc:url"));
}

// The link's values for each calculator, read in one pass over the query.
function linkValues() {
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
function showTwice(el) {
  const messages = twice(new URLSearchParams(location.search), `${instance(el)}.`);
  if (!messages.length) return;
  const list = Object.assign(document.createElement("ul"), { className: "calc-link-errors" });
  el.querySelector("form").before(list);
  showList(list, messages);
}

// Fill a calculator from the link it was opened with. What no control can show is kept for
// Python, whose verdict then names the field: a value over the field's limit (refused before
// the page touches it) or a choice that is none of the radios.
function restore(el, values) {
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

// The controls whose link value they do not show are marked (data-link-pending), for the widgets:
// a widget that writes a field must not replace such a value with its own (stored) state.
function markPending(el) {
  const pending = linkOnly.get(el);
  for (const control of el.querySelectorAll("form [name]")) control.toggleAttribute("data-link-pending", pending.has(control.name));
}

// What the form submits (its named, enabled controls; checked ones only for choices), read from the
// controls themselves: a FormData of a form holding a 60-line list cost ~5 ms a keystroke (bench (e)).
function inputs(el) {
  const pending = linkOnly.get(el) || new Map();
  const values = Object.fromEntries(pending);
  for (const control of el.querySelector("form").elements) {
    if (!control.name || control.disabled || pending.has(control.name)) continue;
    if ((control.type === "radio" || control.type === "checkbox") && !control.checked) continue;
    values[control.name] = control.value;
  }
  return values;
}

// Wording that depends on a choice (data-when-field/value, e.g. a question per match format):
// show the variant of the current choice. Presentation only: it works before the engine starts.
// Reads the checked choices only: FormData would force a whole-page layout after a DOM change.
function applyChoices(el) {
  const chosen = {};
  for (const radio of el.querySelectorAll("form input[type=radio]:checked")) chosen[radio.name] = radio.value;
  for (const node of el.querySelectorAll("[data-when-field]")) {
    node.hidden = chosen[node.dataset.whenField] !== node.dataset.whenValue;
  }
}

// Nothing typed, no choice moved off its default, nothing from a link: no verdict to show yet.
function isBlank(el) {
  if (linkOnly.get(el)?.size) return false;
  return [...el.querySelectorAll("form input:not([type=hidden]), form textarea")].every((control) =>
    control.type === "radio" ? control.checked === control.defaultChecked : control.value.trim() === "");
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

// `needed`: an answer not given yet, shown as a neutral note (polite, not invalid) until touched.
function showError(el, field, message, needed = false) {
  const box = el.querySelector(`[data-field="${CSS.escape(field)}"] .calc-error`);
  if (!box) return false;
  box.textContent = message;
  box.hidden = false;
  box.classList.toggle("calc-needed", needed);
  box.setAttribute("role", needed ? "status" : "alert");
  if (needed) return true;
  const controls = el.querySelectorAll(`[data-field="${CSS.escape(field)}"] input, [data-field="${CSS.escape(field)}"] textarea`);
  for (const control of controls) {
    control.setAttribute("aria-invalid", "true");
    if (control.dataset.describedby === undefined) control.dataset.describedby = control.getAttribute("aria-describedby") || "";
    control.dataset.errorFor = field;
    control.setAttribute("aria-describedby", `${control.dataset.describedby} ${box.id}`.trim());
  }
  return true;
}

const scrollToVerdict = new Set(); // calculators a shared link points at, until their first verdict

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
    const answered = touched.get(el);
    const unplaced = verdict.errors.filter((error) => !showError(el, error.field, error.message,
      (error.code === "required" || error.code === "needed") && !answered.has(error.field)));
    summary.textContent = unplaced.map((error) => error.message).join(" ");
    el.dataset.result = "null";
  }
  el.dispatchEvent(new CustomEvent("calc:verdict", { detail: verdict }));
  // A shared link's first verdict is brought into view (the link scrolled to the calculator's top).
  if (scrollToVerdict.delete(el)) el.querySelector(".calc-verdict").scrollIntoView({ block: "nearest" });
  else keepInView(el, summary);
}

// While the judge types, a phone's keyboard leaves the field at the screen's bottom and the verdict
// under it out of sight: scroll the page up just enough to show the summary line, when the field
// being typed in stays in view too (a long form: the field wins; the verdict is a scroll away).
function keepInView(el, summary) {
  const field = document.activeElement;
  if (!summary.textContent || !field || !el.querySelector("form").contains(field)) return;
  const view = window.visualViewport; // what the keyboard leaves visible
  const below = summary.getBoundingClientRect().bottom - (view ? view.offsetTop + view.height : innerHeight);
  const top = document.querySelector(".md-header")?.getBoundingClientRect().bottom ?? 0; // Material's sticky bar
  if (below > 0 && field.getBoundingClientRect().top - below >= top) scrollBy(0, Math.ceil(below)); // whole pixels: a part of one would stay hidden
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
  const fromLink = linkValues();
  for (const el of calculators) {
    const form = el.querySelector("form");
    restore(el, fromLink.get(el));
    touched.set(el, new Set(fromLink.get(el).keys()));
    showTwice(el);
    if (location.hash === `#${el.id}` && fromLink.get(el).size) scrollToVerdict.add(el);
    applyChoices(el);
    form.addEventListener("input", (event) => {
      // The user's value now; a widget filling its field at start-up (detail.initial) is not the user.
      if (event.target.name && !event.detail?.initial) {
        touched.get(el).add(event.target.name);
        if (linkOnly.get(el).delete(event.target.name)) markPending(el);
      }
      applyChoices(el);
      evaluate(el);
      if (!event.detail?.initial) syncUrlSoon(); // a widget filling its field at start-up is no change to share
    });
    el.addEventListener("focusout", syncUrlNow); // before a tap on a link takes the address
    // The keyboard's Go/Enter asks for the answer: whatever is still missing is now an error. (The form
    // has no submit button, so a form of several fields never submits on Enter by itself.)
    const ask = (event) => {
      event.preventDefault();
      for (const box of el.querySelectorAll(".calc-field[data-field]")) touched.get(el).add(box.dataset.field);
      evaluate(el);
    };
    form.addEventListener("submit", ask);
    form.addEventListener("keydown", (event) => { if (event.key === "Enter" && event.target.tagName === "INPUT") ask(event); });
    const share = el.querySelector(".calc-share");
    const title = el.querySelector(".calc-title").textContent;
    share.addEventListener("click", () => copyLink(linkTo(el), share.dataset.copied, title, leftOut(el)));
    el.querySelector(".calc-qr").addEventListener("click", () => showQr(linkTo(el), title, leftOut(el)));
    el.querySelector(".calc-retry").addEventListener("click", () => (startModuleFailed ? location.reload() : startEngine()));
    if (el.dataset.widget) {
      import(new URL(`widgets/${el.dataset.widget}.js`, import.meta.url)).then((widget) => widget.mount(el));
    }
  }
  addEventListener("pagehide", syncUrlNow);
  document.documentElement.dataset.calcMounted = "";
  startEngine();
}
