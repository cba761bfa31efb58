// Starts the calculators' engine: a worker booting Pyodide, and the wasm compiled on this thread.
// Preloaded from <head> on pages with a calculator, run by calc.js once the page is parsed, so that
// neither the page's compile nor the worker competes with Material's start-up (DESIGN.md, "Decisions").

// The content-hashed engine paths and the snapshot self-test, written into this line by the build
// (sitebuild/engine.py) so that starting needs no fetch first.
const ENGINE = null;

// The engine's wasm compiled on this thread, measured faster than in the worker on a repeat visit
// (engine-module.js), or null: the worker then compiles it itself (also when anything fails
// here: the worker finds and reports the failure when it downloads the engine's files).
// A first visit (no service worker yet) leaves it to the worker: there is no compiled code to
// reuse yet, and a streaming compile here feeds the download to the compiler on this thread,
// ~0.35 s of blocked page under a 4x CPU slowdown (DESIGN.md, "Decisions": a first visit compiles the wasm in the worker).
async function compileEngine(firstVisit) {
  try {
    if (firstVisit) return null;
    const response = await fetch(new URL(`${ENGINE.pyodide}pyodide.asm.wasm`, import.meta.url));
    return await WebAssembly.compileStreaming(response);
  } catch {
    return null;
  }
}

// A new engine worker, given the engine's files (its name) and the wasm compiled on this thread.
// Messages that arrive before calc.js listens are kept in `early`, in order; `wasm` settles when
// this page's own download of the wasm has ended (at once on a first visit: the worker's is
// reported as its progress).
function launch() {
  const firstVisit = !navigator.serviceWorker?.controller;
  const name = JSON.stringify({ ...ENGINE, compileWasm: firstVisit });
  const worker = new Worker(new URL("worker.js", import.meta.url), { type: "module", name });
  const wasm = compileEngine(firstVisit).then((module) => worker.postMessage({ type: "module", module }));
  const early = [];
  worker.onmessage = ({ data }) => early.push(data);
  worker.onerror = (event) => {
    event.preventDefault();
    early.push({ type: "failed", detail: event.message || "worker error" });
  };
  return { worker, early, wasm };
}

let first = launch();

// The engine started with this module the first time, a new one on each later call (retry).
export function takeEngine() {
  const engine = first || launch();
  first = null;
  return engine;
}
