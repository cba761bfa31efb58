// Starts the calculators' engine as early as the page allows. Pages with a calculator load this
// first thing in <head>, as an async module with no imports (calculators/mkdocs_hook.py), so the
// worker boots while the page is still being parsed and styled; calc.js imports the same module
// instance and takes the worker over once the page is ready. Measured with tools/bench.py: the
// worker started ~0.13 s after navigation from the end of the body, ~0.06 s from here.

// The content-hashed engine files ({"pyodide": "pyodide-<hash>/", "wheel": "wheel-<hash>/…whl"}),
// written into this line at build time by calculators/offline.py. Not fetched from engine.json:
// on a cold visit that fetch's answer waited ~80-140 ms for the page's busy main thread before the
// wasm compile could start (measured with a timeline of the page and the worker, 2 cores).
const ENGINE = null;

// The engine's wasm compiled on this thread, where it gets the browser's compiled-code cache
// (why: engine-module.js), or null when anything fails: the worker then compiles it itself, or
// finds and reports the failure with its checks of every engine file.
async function compileEngine() {
  try {
    return await WebAssembly.compileStreaming(fetch(new URL(`${ENGINE.pyodide}pyodide.asm.wasm`, import.meta.url)));
  } catch {
    return null;
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
