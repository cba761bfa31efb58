// Starts the calculators' engine: a worker booting Pyodide, and the wasm compiled on this thread.
// Preloaded from <head> on pages with a calculator, run by calc.js once the page is parsed, so it
// does not compete with Material's start-up (DESIGN.md, "Decisions").

// The content-hashed engine paths and the snapshot self-test, written into this line by the build
// (sitebuild/engine.py) so that starting needs no fetch first.
const ENGINE = null;

// The engine's wasm compiled on this thread, where it gets the browser's compiled-code cache
// (why: engine-module.js), or null when anything fails: the worker then compiles it itself, or
// finds and reports the failure when it downloads the engine's files.
async function compileEngine() {
  try {
    const response = await fetch(new URL(`${ENGINE.pyodide}pyodide.asm.wasm`, import.meta.url));
    // A first visit downloads it from the network: report its progress (calc.js's stall watchdog).
    // Later visits get it from the service worker, and the original response keeps the compiled-code cache.
    if (!navigator.serviceWorker?.controller && response.body) reportProgress(response.clone().body);
    return await WebAssembly.compileStreaming(response);
  } catch {
    return null;
  } finally {
    document.dispatchEvent(new CustomEvent("calc:wasm", { detail: "done" }));
  }
}

async function reportProgress(body) {
  const reader = body.getReader();
  let last = 0;
  for (;;) {
    const { done } = await reader.read();
    if (done) return;
    if (Date.now() - last > 1000) {
      last = Date.now();
      document.dispatchEvent(new CustomEvent("calc:wasm", { detail: "progress" }));
    }
  }
}

// A new engine worker, given the engine's files (its name) and the wasm compiled on this thread.
// Messages that arrive before calc.js listens are kept in `early`, in order.
export function launch() {
  const worker = new Worker(new URL("worker.js", import.meta.url), { type: "module", name: JSON.stringify(ENGINE) });
  compileEngine().then((module) => worker.postMessage({ type: "module", module }));
  const early = [];
  worker.onmessage = ({ data }) => early.push(data);
  worker.onerror = (event) => {
    event.preventDefault();
    early.push({ type: "failed", detail: event.message || "worker error" });
  };
  return { worker, early };
}

let first = launch();

// The engine started with the page the first time, a new one on each later call (retry).
export function takeEngine() {
  const engine = first || launch();
  first = null;
  return engine;
}
