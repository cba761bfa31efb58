// The calculators' engine, its life: start (engine/start.js), download progress, the watchdog, one
// unseen retry, the status line under each calculator (data-state: loading | ready | error).
// Verdicts are asked for through verdict.js; this module only answers them.
//
// The engine's life is one value, `life.state` (also <html data-engine-state>), changed only by
// `go()`; the states and the transitions that lead to them:
//   starting     startEngine(): a worker launched, no byte yet (from idle, failed, retrying, ready)
//   downloading  "progress": bytes arrive (the watchdog fails the start after STALL_MS without one)
//   restoring    "downloaded": every byte here; Python starts or restores its snapshot (not watched)
//   ready        "ready": verdicts are asked of the engine
//   retrying     a start failed on a dropped request, a suspect or damaged file: started once more,
//                unseen (past the caches unless dropped); its own failure is final
// (A restored snapshot that went wrong after "ready" is dropped by the worker and started again in
// full, once: ready -> starting.) The retry button starts again from failed (past the caches after
// a suspect or damaged file), or reloads the page (retryReloads()).
//   failed       any other failure, or one during a retry: `life.kind` (engine/protocol.js FAILURE)
//                and the line says why: the network or browser (default), the host ("damaged"),
//                a new release ("replaced"), a page script that did not load (retry reloads)
// `life.spent`: what this page has used of its one unseen retry and its one heal.
import { FAILURE, MESSAGE } from "../engine/protocol.js";
import { word } from "../shared/page-data.js";
import { fill, STALL_MS } from "../shared/share.js";

let calculators = []; // the page's calculators (calc.js)
let whenReady = () => {}; // calc.js: evaluate every calculator once the engine is ready
const waiting = new Map(); // seq -> resolve of its verdict's promise
let worker = null;
let seq = 0;
let stall = null; // the watchdog's timer
const downloading = new Set(); // "wasm" (the page's), "worker" (the worker's files): what the watchdog watches
const life = { state: "idle", kind: null, spent: new Set() };
const STARTING = new Set(["starting", "downloading", "restoring", "retrying"]);
// Failures worth one more start, unseen: a venue's network drops a request now and then; a file
// that is not the build's may be a cache's, asked again past it. Not an error status (the same
// answer again), a stall (it has waited STALL_MS already), nor a page script that did not load.
const RETRIED = new Set([FAILURE.DROPPED, FAILURE.SUSPECT, FAILURE.DAMAGED]);
// Failures on what a file held: the next start asks every file past the caches.
const FRESH = new Set([FAILURE.SUSPECT, FAILURE.DAMAGED]);

function go(state, kind = null) {
  life.state = state;
  life.kind = kind;
  document.documentElement.dataset.engineState = state;
}

// A tab open on an earlier release: a later release's service worker took control of it (another
// tab reloaded into it) and dropped this page's engine files, which the host no longer has either.
// A start that failed, or fails from then on, asks for a reload, which gets the release now installed.
// (A first visit's own service worker taking control is no release: it becomes the page's first.)
let firstController = navigator.serviceWorker?.controller ?? null;
const replaced = () => firstController !== null && navigator.serviceWorker.controller !== firstController;
navigator.serviceWorker?.addEventListener("controllerchange", () => {
  firstController ??= navigator.serviceWorker.controller;
  if (replaced() && life.state === "failed") for (const el of calculators) setState(el, "error");
});

export function mountEngine(list, ready) {
  calculators = list;
  whenReady = ready;
}

export const engineReady = () => life.state === "ready";
export const enginePending = () => waiting.size;
// Retry means reload: a page script that did not load stays failed in this page, and a new release
// needs the page too.
export const retryReloads = () => life.kind === FAILURE.BROKEN || replaced();

// The error says that the server keeps sending files that are not the site's ("damaged"), or that a
// new release is installed ("replaced"), else that the network or browser failed.
// A plain failure beside a verdict from the build's tables says that verdict is complete, other values
// needing the network ("ui.failed_early"); a damaged host or a replaced release says so whatever shows.
function failedText(el) {
  if (replaced()) return word("ui.replaced");
  if (life.kind === FAILURE.DAMAGED) return word("ui.damaged");
  return word(el.dataset.early ? "ui.failed_early" : "ui.failed");
}

function setState(el, state) {
  el.dataset.state = state;
  const status = el.querySelector(".calc-status");
  const retry = el.querySelector(".calc-retry");
  if (state === "ready") delete el.dataset.early; // a failed start keeps it: its verdict stays, said complete
  status.textContent = { loading: loadingText(el), ready: word("ui.ready"), error: failedText(el) }[state];
  el.querySelector(".calc-progress")?.remove(); // a start's progress shows again with its next bytes
  // A retry in progress keeps its button in view, disabled: one click restarts the engine once.
  retry.hidden = state === "ready" || (state === "loading" && retry.hidden);
  retry.disabled = state === "loading";
}

// While the engine starts, a verdict shown from the build's tables (verdict.js) is said in the status
// line instead of the start's own sentence (its progress bar stays): data-early "table", or "names"
// (the table's verdict with the default names, the typed ones to come with the engine); else the
// download's share while bytes are still awaited (a paused download is not "starting"), then
// "Starting the calculator…".
let downloaded = null; // the share of the engine's files arrived (a number below 100) while downloading, else null
function loadingText(el) {
  const early = { table: "ui.early", names: "ui.early_names" }[el.dataset.early];
  if (early) return word(early);
  // An integer below 100 has the same digits in every language of the site: fill() writes it as is, no
  // ICU formatter (toLocaleString) is set up while the page starts (~20 ms of its main thread, ~80 at 4x CPU).
  return downloaded === null ? word("ui.loading") : fill(word("ui.downloading"), { percent: downloaded });
}

// `early`: false, "table" or "names" (verdict.js).
export function showEarly(el, early) {
  const state = el.dataset.state;
  if ((state !== "loading" && state !== "error") || (early || undefined) === el.dataset.early) return;
  if (early) el.dataset.early = early;
  else delete el.dataset.early;
  const status = el.querySelector(".calc-status");
  status.textContent = state === "loading" ? loadingText(el) : failedText(el); // error: a verdict now beside it, or none
}

// A download that makes no progress for STALL_MS has stalled: the start ends in the error and its
// retry, never in an endless "Starting…". Once every file has arrived the watchdog stops: what
// remains is the phone's CPU starting Python, slow on a slow phone but not stalled.
function watchStart() {
  clearTimeout(stall);
  stall = downloading.size && STARTING.has(life.state)
    ? setTimeout(() => fail(FAILURE.STALLED, `no download progress for ${STALL_MS / 1000} s`), STALL_MS)
    : null;
}

function arrived(part) {
  downloading.delete(part);
  watchStart();
}

// The download's share as a bar and a sentence under each calculator that is still starting.
function showProgress({ done, total }) {
  // (The worker also beats while Python starts, after its last byte: that is no download.)
  if (!total || !downloading.has("worker")) return;
  const percent = Math.min(99, Math.floor((done * 100) / total)); // 100 is "ready"
  downloaded = percent;
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
    status.textContent = loadingText(el);
  }
}

// A start that failed: once more unseen when the failure may pass and this page has not used its
// retry, else the error under every calculator.
function fail(kind, detail) {
  clearTimeout(stall);
  downloaded = null;
  if (worker) worker.terminate(); // a stalled start must not turn "ready" behind the error
  worker = null;
  if (RETRIED.has(kind) && !life.spent.has("retry") && life.state !== "retrying") {
    life.spent.add("retry");
    console.warn("calculator engine failed, starting once more:", detail);
    startEngine({ fresh: FRESH.has(kind), retrying: true });
    return;
  }
  console.error("calculator engine failed:", detail);
  go("failed", kind);
  calculators.forEach((el) => setState(el, "error"));
  document.dispatchEvent(new Event("calc:engine"));
}

function onEngineMessage(data) {
  if (!STARTING.has(life.state) && life.state !== "ready") return; // a start given up: its worker's last words
  if (data.type === MESSAGE.PROGRESS) {
    if (life.state === "starting") go("downloading");
    showProgress(data);
    watchStart();
  } else if (data.type === MESSAGE.DOWNLOADED) {
    arrived("worker");
    downloaded = null;
    if (life.state !== "retrying") go("restoring");
    // Every byte here: what remains is the phone starting Python, "Starting the calculator…".
    for (const el of calculators) if (el.dataset.state === "loading") setState(el, "loading");
  } else if (data.type === MESSAGE.READY) {
    clearTimeout(stall);
    go("ready");
    document.documentElement.dataset.engineStart = data.start; // "snapshot" | "full" (worker.js)
    calculators.forEach((el) => { setState(el, "ready"); whenReady(el); });
    document.dispatchEvent(new Event("calc:engine"));
  } else if (data.type === MESSAGE.SNAPSHOT_STORED) {
    document.documentElement.dataset.engineSnapshot = "stored";
  } else if (data.type === MESSAGE.ENGINE_DAMAGED) {
    // A restored snapshot went wrong after "ready": the worker dropped it; one full start heals it.
    if (!life.spent.has("heal")) {
      life.spent.add("heal");
      startEngine();
    }
  } else if (data.type === MESSAGE.FAILED) {
    fail(data.kind, data.detail);
  } else {
    const answer = waiting.get(data.seq);
    waiting.delete(data.seq);
    answer?.(data); // {type: "verdict", verdict} | {type: "internal", detail}
  }
}

// `fresh`: every file asked past the caches (by default after a failure on what a file held).
// `retrying`: an unseen second start (its failure is final).
export async function startEngine({ fresh = life.state === "failed" && FRESH.has(life.kind), retrying = false } = {}) {
  if (worker) worker.terminate();
  worker = null;
  waiting.clear();
  downloaded = null;
  go(retrying ? "retrying" : "starting");
  calculators.forEach((el) => setState(el, "loading"));
  downloading.clear();
  downloading.add("wasm").add("worker");
  watchStart();
  const mine = life.state;
  // Imported here, not at the top: importing it starts an engine, and a page without a calculator
  // loads no engine byte. Pages with one have it preloaded from <head>.
  let engine;
  try {
    const { takeEngine } = await import("../engine/start.js");
    engine = takeEngine({ fresh });
  } catch (error) {
    life.spent.add("retry"); // a page script that did not load stays failed in this page
    fail(FAILURE.BROKEN, `engine/start.js: ${error.message || error}`);
    return;
  }
  if (life.state !== mine) { // the watchdog gave up while the module was on its way
    engine.worker.terminate();
    return;
  }
  worker = engine.worker;
  // The page's own download of the wasm (engine/start.js; none on a first visit, where the worker
  // downloads it and reports its progress).
  engine.wasm.then(() => { if (worker === engine.worker) arrived("wasm"); });
  worker.onmessage = ({ data }) => onEngineMessage(data);
  worker.onerror = (event) => {
    event.preventDefault();
    fail(FAILURE.DROPPED, event.message || "worker error"); // the worker could not load
  };
  engine.early.forEach(onEngineMessage);
}

// The engine's answer for these values: a promise of the worker's message (never settled if the
// engine restarts first). Only once the engine is ready (engineReady()).
export function askEngine(calc, inputs, lang) {
  seq += 1;
  worker.postMessage({ type: MESSAGE.EVAL, seq, calc, inputs, lang });
  return new Promise((resolve) => waiting.set(seq, resolve));
}
