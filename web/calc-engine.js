// The calculators' engine, its life: start (engine-start.js), download progress, the watchdog, one
// retry, the status line under each calculator (data-state: loading | ready | error). Verdicts are
// asked for through verdict.js; this module only answers them.
import { fill, STALL_MS } from "./share.js";

let calculators = []; // the page's calculators (calc.js)
let whenReady = () => {}; // calc.js: evaluate every calculator once the engine is ready
const waiting = new Map(); // seq -> resolve of its verdict's promise
let worker = null;
let seq = 0;
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
// A tab open on an earlier release: a later release's service worker took control of it (another
// tab reloaded into it) and dropped this page's engine files, which the host no longer has either.
// A start that failed, or fails from then on, asks for a reload, which gets the release now installed.
let superseded = false;
if (navigator.serviceWorker) {
  let controlled = Boolean(navigator.serviceWorker.controller); // a first visit's own worker taking over is no release
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    superseded = controlled;
    controlled = true;
    if (superseded) for (const el of calculators) if (el.dataset.state === "error") setState(el, "error", "replaced");
  });
}

export function mountEngine(list, ready) {
  calculators = list;
  whenReady = ready;
}

let ready = false; // "ready" came, and no start or failure since
export const engineReady = () => ready;
export const enginePending = () => waiting.size;
// Retry means reload: a failed module stays failed in this page, and a new release needs the page too.
export const retryReloads = () => startModuleFailed || superseded;

// `why`: the error says that the server keeps sending files that are not the site's ("damaged"),
// or that a new release is installed ("replaced").
function setState(el, state, why = null) {
  el.dataset.state = state;
  const status = el.querySelector(".calc-status");
  const retry = el.querySelector(".calc-retry");
  const failed = { damaged: el.dataset.msgDamaged, replaced: el.dataset.msgReplaced }[why] ?? el.dataset.msgFailed;
  if (state === "ready") delete el.dataset.early;
  status.textContent = { loading: loadingText(el, el.dataset.msgLoading), ready: el.dataset.msgReady, error: failedText(el, failed) }[state];
  el.querySelector(".calc-progress")?.remove(); // a start's progress shows again with its next bytes
  // A retry in progress keeps its button in view, disabled: one click restarts the engine once.
  retry.hidden = state === "ready" || (state === "loading" && retry.hidden);
  retry.disabled = state === "loading";
}

// While the engine starts, a verdict shown from the build's tables (verdict.js) is said in the status
// line instead of the start's own sentence (its progress bar stays): data-early "table", or "names"
// (the table's verdict with the default names, the typed ones to come with the engine). After a
// failed start, such a verdict is said to be complete, other values needing the network.
const loadingText = (el, text) =>
  ({ table: el.dataset.msgEarly, names: el.dataset.msgEarlyNames }[el.dataset.early] ?? text);
const failedText = (el, text) => (el.dataset.early && text === el.dataset.msgFailed ? el.dataset.msgFailedEarly : text);

// `early`: false, "table" or "names" (verdict.js).
export function showEarly(el, early) {
  const state = el.dataset.state;
  if ((state !== "loading" && state !== "error") || (early || undefined) === el.dataset.early) return;
  if (early) el.dataset.early = early;
  else delete el.dataset.early;
  const status = el.querySelector(".calc-status");
  if (state === "loading") status.textContent = loadingText(el, el.dataset.msgLoading);
  else if (status.textContent === el.dataset.msgFailed || status.textContent === el.dataset.msgFailedEarly) {
    status.textContent = failedText(el, el.dataset.msgFailed);
  }
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
    status.textContent = loadingText(el, fill(el.dataset.msgDownloading, { percent }));
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
    ready = true;
    clearTimeout(stall);
    document.documentElement.dataset.engineStart = data.start; // "snapshot" | "full" (worker.js)
    calculators.forEach((el) => { setState(el, "ready"); whenReady(el); });
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
    ready = false;
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
    const why = superseded ? "replaced" : data.damaged ? "damaged" : null;
    calculators.forEach((el) => setState(el, "error", why));
    document.dispatchEvent(new Event("calc:engine"));
  } else {
    const answer = waiting.get(data.seq);
    waiting.delete(data.seq);
    answer?.(data); // {type: "verdict", verdict} | {type: "internal", detail}
  }
}

export async function startEngine() {
  if (worker) worker.terminate();
  worker = null;
  ready = false;
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

// The engine's answer for these values: a promise of the worker's message (never settled if the
// engine restarts first). Only once the engine is ready (engineReady()).
export function askEngine(calc, inputs, lang) {
  seq += 1;
  worker.postMessage({ type: "eval", seq, calc, inputs, lang });
  return new Promise((resolve) => waiting.set(seq, resolve));
}
