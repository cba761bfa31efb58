// The engine: Pyodide and our wheel, in a module Web Worker, all from this site.
// Protocol: page -> {type: "module", module} (first: the compiled wasm or null) | {type: "eval", seq, calc, inputs, lang};
// worker -> {type: "ready", start: "snapshot" | "full"} | {type: "snapshot-stored"} | {type: "failed", detail}
//         | {type: "verdict", seq, verdict} | {type: "internal", seq, detail}.
import { withModule } from "./engine-module.js";
import { dropSnapshot, findSnapshot, storeSnapshot } from "./engine-snapshot.js";

const here = (path) => new URL(path, import.meta.url).href;
// The page sends the wasm compiled on its thread (or null) as its first message: engine-start.js.
let receiveModule;
const compiled = new Promise((resolve) => { receiveModule = resolve; });

// Pyodide logs a missing wasm or stdlib and then never settles: check every file first.
const RUNTIME = ["pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];

async function fetchOk(url, init) {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response;
}

// Our wheel, unpacked by Python itself: Pyodide's loadPackage leaves JS state behind that a
// memory snapshot refuses (engine-snapshot.js). Pure Python, no dependencies: unpacking installs it.
function installWheel(pyodide, bytes) {
  pyodide.FS.writeFile("/tmp/engine.whl", bytes);
  pyodide.runPython(`
import sysconfig, zipfile
with zipfile.ZipFile("/tmp/engine.whl") as wheel:
    wheel.extractall(sysconfig.get_path("purelib"))
`);
}

async function boot() {
  // engine.json names the content-hashed engine directory and wheel (calculators/offline.py).
  const { wheel, pyodide: dir } = await (await fetchOk(here("engine.json"))).json();
  // Fetched now, used later: the wheel, and Pyodide's 1.2 MB runtime script that withModule()
  // imports (the browser's module map makes that import this one).
  const wheelBytes = fetchOk(here(wheel)).then((response) => response.arrayBuffer());
  import(here(`${dir}pyodide.asm.mjs`)).catch(() => {}); // failures surface in withModule()
  // Checked alongside the start, which they cut short with a clear error when a file is missing
  // (the wheel's own download is its check).
  const checks = Promise.all([...RUNTIME.map((name) => fetchOk(here(`${dir}${name}`), { method: "HEAD" })), wheelBytes]);
  const snapshotKey = here(`snapshot/${dir}${wheel}`);
  const [stored, { loadPyodide }] = await Promise.all([findSnapshot(snapshotKey), import(here(`${dir}pyodide.mjs`))]);
  const start = async (options) => {
    const engine = await withModule(here(dir), compiled);
    const [pyodide] = await Promise.all([
      Promise.race([loadPyodide({ indexURL: here(dir), ...options, ...engine.options }), engine.failure]),
      checks,
    ]);
    return pyodide;
  };
  let pyodide = null;
  if (stored) {
    try {
      pyodide = await start({ _loadSnapshot: stored.arrayBuffer() });
    } catch (error) {
      console.warn("engine snapshot refused, starting in full:", error);
      await dropSnapshot(snapshotKey);
    }
  }
  const restored = pyodide !== null;
  pyodide ??= await start({ _makeSnapshot: true });
  installWheel(pyodide, new Uint8Array(await wheelBytes));
  return {
    evaluateJson: pyodide.pyimport("calculators.bridge").evaluate_json,
    start: restored ? "snapshot" : "full",
    takeSnapshot: restored ? null : () => [snapshotKey, pyodide.makeMemorySnapshot()],
  };
}

const engine = boot();
engine.then(
  async ({ start, takeSnapshot }) => {
    postMessage({ type: "ready", start });
    if (!takeSnapshot) return;
    // Runs before this worker reads any message (the handler below awaits `engine` later), so
    // the snapshot holds no user input.
    let taken;
    try {
      taken = takeSnapshot();
    } catch (error) {
      return console.warn("engine snapshot not taken:", error);
    }
    if (await storeSnapshot(...taken)) postMessage({ type: "snapshot-stored" });
  },
  (error) => postMessage({ type: "failed", detail: String(error && error.message || error) }),
);

self.onmessage = async (event) => {
  if (event.data.type === "module") return receiveModule(event.data.module);
  const { seq, calc, inputs, lang } = event.data;
  let evaluateJson;
  try {
    ({ evaluateJson } = await engine);
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
