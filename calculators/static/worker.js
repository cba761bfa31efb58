// The engine: Pyodide and our wheel, in a module Web Worker, all from this site.
// Protocol: page -> {type: "module", module} (first: the compiled wasm or null) | {type: "eval", seq, calc, inputs, lang};
// worker -> {type: "ready"} | {type: "failed", detail} | {type: "verdict", seq, verdict} | {type: "internal", seq, detail}.
import { withModule } from "./engine-module.js";

const here = (path) => new URL(path, import.meta.url).href;
// The page sends the wasm compiled on its thread (or null) as its first message: engine-module.js.
let receiveModule;
const compiled = new Promise((resolve) => { receiveModule = resolve; });

// Pyodide logs a missing wasm or stdlib and then never settles: check every file first.
const RUNTIME = ["pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];

async function present(url) {
  const response = await fetch(url, { method: "HEAD" });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
}

async function boot() {
  const response = await fetch(here("engine.json"));
  if (!response.ok) throw new Error(`engine.json: HTTP ${response.status}`);
  // engine.json names the content-hashed engine directory and wheel (calculators/offline.py).
  const { wheel, pyodide: dir } = await response.json();
  await Promise.all([...RUNTIME.map((name) => here(`${dir}${name}`)), here(wheel)].map(present));
  const { loadPyodide } = await import(here(`${dir}pyodide.mjs`));
  const module = await compiled;
  // Without the page's module Pyodide compiles the wasm itself, and only logs a refusal (a policy
  // without 'wasm-unsafe-eval'): it never settles. Compiling an empty module first throws instead.
  if (!module) new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  const pyodide = await loadPyodide({ indexURL: here(dir), ...(await withModule(here(dir), module)) });
  const problems = [];
  // loadPackage does not reject on a 404: check what it reports and returns.
  const loaded = await pyodide.loadPackage(here(wheel), {
    messageCallback: () => {},
    errorCallback: (message) => problems.push(message),
  });
  if (problems.length || !loaded || loaded.length === 0) {
    throw new Error(`wheel ${wheel} not loaded: ${problems.join("; ") || "nothing loaded"}`);
  }
  return pyodide.pyimport("calculators.bridge").evaluate_json;
}

const engine = boot();
engine.then(
  () => postMessage({ type: "ready" }),
  (error) => postMessage({ type: "failed", detail: String(error && error.message || error) }),
);

self.onmessage = async (event) => {
  if (event.data.type === "module") return receiveModule(event.data.module);
  const { seq, calc, inputs, lang } = event.data;
  let evaluateJson;
  try {
    evaluateJson = await engine;
  } catch {
    return; // "failed" was already reported
  }
  try {
    const verdict = JSON.parse(evaluateJson(calc, JSON.stringify(inputs), lang));
    postMessage({ type: "verdict", seq, verdict });
  } catch (error) {
    postMessage({ type: "internal", seq, detail: String(error && error.message || error) });
  }
};
