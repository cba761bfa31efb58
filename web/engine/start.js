// Starts the calculators' engine: a worker booting Pyodide, and the wasm compiled on this thread.
// Preloaded from <head> on pages with a calculator, run by calc-engine.js (from calc.js) once the page is parsed, so that
// neither the page's compile nor the worker competes with Material's start-up (DESIGN.md, "Decisions").

// The content-hashed engine paths and the snapshot self-test: build facts (sitebuild/contract.py),
// imported, so that starting needs no fetch first.
import { ENGINE } from "../build.js";
import { FAILURE, MESSAGE } from "./protocol.js";

// The engine's wasm compiled on this thread, measured faster than in the worker on a repeat visit
// (engine/module.js), or null: the worker then compiles it itself (also when anything fails
// here: the worker finds and reports the failure when it downloads the engine's files).
// A first visit (no service worker yet) leaves it to the worker: there is no compiled code to
// reuse yet, and a streaming compile here feeds the download to the compiler on this thread,
// ~0.35 s of blocked page under a 4x CPU slowdown (DESIGN.md, "Decisions": a first visit compiles the wasm in the worker).
async function compileEngine(firstVisit, fresh) {
  try {
    if (firstVisit) return null;
    const wasm = new URL(`../${ENGINE.pyodide}pyodide.asm.wasm`, import.meta.url);
    if (fresh) wasm.search = `fresh=${fresh}`;
    const response = await fetch(wasm, fresh ? { cache: "reload" } : {});
    return await WebAssembly.compileStreaming(response);
  } catch {
    return null;
  }
}

// A new engine worker, given the engine's files (its name) and the wasm compiled on this thread.
// Messages that arrive before calc-engine.js listens are kept in `early`, in order; `wasm` settles when
// this page's own download of the wasm has ended (at once on a first visit: the worker's is
// reported as its progress). `fresh` (a retry of a start that failed on what the server sent): every
// engine file, and the worker itself, asked past the caches under a query never used before.
function launch(fresh = null) {
  const firstVisit = !navigator.serviceWorker?.controller;
  const name = JSON.stringify({ ...ENGINE, compileWasm: firstVisit, fresh });
  const script = new URL("worker.js", import.meta.url);
  if (fresh) script.search = `fresh=${fresh}`;
  const worker = new Worker(script, { type: "module", name });
  const wasm = compileEngine(firstVisit, fresh).then((module) => worker.postMessage({ type: MESSAGE.MODULE, module }));
  const early = [];
  worker.onmessage = ({ data }) => early.push(data);
  worker.onerror = (event) => {
    event.preventDefault();
    early.push({ type: MESSAGE.FAILED, kind: FAILURE.SUSPECT, detail: event.message || "worker error" });
  };
  return { worker, early, wasm };
}

let first = launch();

// The engine started with this module the first time, a new one on each later call (a retry;
// `fresh`: see launch).
export function takeEngine({ fresh = false } = {}) {
  const engine = (!fresh && first) || launch(fresh ? String(Date.now()) : null);
  if (first && engine !== first) first.worker.terminate();
  first = null;
  return engine;
}
