// Starts the calculators' engine: a worker booting Pyodide, and the wasm compiled on this thread.
// Pages with a calculator fetch this module first thing in <head> (<link rel="modulepreload">,
// calculators/mkdocs_hook.py) and calc.js imports it, which starts the engine, once the page is
// parsed; pages without one never load it.
//
// Measured with tools/bench.py (2 cores): run from <head> as an async script, this module started the
// worker earlier, but its start then competed with Material's own start-up: Lighthouse Total Blocking
// Time medians of 47-61 ms per calculator page, against 0-21 ms when run by calc.js. Cold start to
// "ready" was the same within run-to-run spread on 127.0.0.1; with every request delayed by 150 ms
// (bench --latency 150) the <head> start was sooner: 1.22x the floor against 1.39x (README, Benchmark).

// The content-hashed engine files ({"pyodide": "pyodide-<hash>/", "wheel": "wheel-<hash>/…whl"}),
// written into this line at build time by calculators/offline.py. Not fetched from engine.json:
// on a cold visit that fetch's answer waited ~80-140 ms for the page's busy main thread before the
// wasm compile could start (measured with a timeline of the page and the worker, 2 cores).
const ENGINE = null;

// The engine's wasm compiled on this thread, where it gets the browser's compiled-code cache
// (why: engine-module.js), or null when anything fails: the worker then compiles it itself, or
// finds and reports the failure when it downloads the engine's files.
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
