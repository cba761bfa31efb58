// The engine: Pyodide and our wheel, in a module Web Worker, all from this site.
// Protocol: page -> {type: "module", module} (first: the compiled wasm or null) | {type: "eval", seq, calc, inputs, lang};
// worker -> {type: "progress"} (bytes arrived) | {type: "downloaded"} (every file here): for the page's stall watchdog
//         | {type: "ready", start: "snapshot" | "full"} | {type: "snapshot-stored"} | {type: "failed", detail}
//         | {type: "verdict", seq, verdict} | {type: "internal", seq, detail}
//         | {type: "engine-damaged"} (a restored snapshot failed after "ready": dropped; start again).

const here = (path) => new URL(path, import.meta.url).href;
// The page sends the wasm compiled on its thread (or null) as its first message: engine-start.js.
let receiveModule;
const compiled = new Promise((resolve) => { receiveModule = resolve; });

// Pyodide's standard library and lock file, downloaded from the worker's first step and handed to
// Pyodide (engine-module.js), which would ask for them only after its runtime script has run.
const PREFETCHED = ["python_stdlib.zip", "pyodide-lock.json"];

let lastBeat = 0;
function progress() {
  const now = Date.now();
  if (now - lastBeat < 1000) return;
  lastBeat = now;
  postMessage({ type: "progress" });
}

// The download, its bytes reported as they arrive (progress), failing on an HTTP error.
async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  progress();
  const counted = new TransformStream({ transform(chunk, out) { progress(); out.enqueue(chunk); } });
  return new Response(response.body.pipeThrough(counted), { status: response.status, headers: response.headers });
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

// The engine's answers to the build's examples (computed by CPython at build time: engine-start.js)
// must be the same here: a restored snapshot is trusted only once it gives them.
function selfTest(evaluateJson, checks) {
  for (const [calc, inputs, lang, expected] of checks) {
    const got = evaluateJson(calc, JSON.stringify(inputs), lang);
    if (got !== expected) throw new Error(`self-test ${calc}/${lang}: ${got} != ${expected}`);
  }
}

async function boot() {
  // The worker's name: the content-hashed engine directory and wheel, and the self-test (engine-start.js).
  // compileWasm: the page leaves the wasm to this worker (a first visit: engine-start.js), so it is
  // downloaded with the other files, its progress reported.
  const { wheel, pyodide: dir, checks, compileWasm } = JSON.parse(self.name);
  const snapshotKey = here(`snapshot/${dir}${wheel}`);
  // First, the largest file: compiled as it arrives (on this thread and V8's, not the page's); the
  // compile's end is also its download's end.
  const ownModule = compileWasm ? WebAssembly.compileStreaming(fetchOk(here(`${dir}pyodide.asm.wasm`))) : null;
  // Every file is requested now, in the order needed (DESIGN.md): dynamic imports, since static
  // ones would hold this first step back by a round trip; withModule() reuses this runtime import.
  const loader = Promise.all([import(here(`${dir}pyodide.mjs`)), import("./engine-module.js"), import("./engine-snapshot.js")]);
  const runtime = import(here(`${dir}pyodide.asm.mjs`)).catch(() => {}); // a failure surfaces in withModule()
  const prefetched = new Map(PREFETCHED.map((name) => [here(`${dir}${name}`), fetchOk(here(`${dir}${name}`))]));
  const wheelBytes = fetchOk(here(wheel)).then((response) => response.arrayBuffer());
  // A missing file cuts the start short with a clear error (Pyodide would log it and never settle;
  // a missing wasm or runtime script fails withModule(), a missing loader fails the import).
  const downloads = Promise.all([wheelBytes, ...prefetched.values(), ownModule]);
  // Every file here: the page's stall watchdog stops watching this worker.
  Promise.all([loader, runtime, downloads]).then(() => postMessage({ type: "downloaded" }), () => {});
  const [{ loadPyodide }, { withModule }, { dropSnapshot, findSnapshot, snapshotIntact, storeSnapshot }] = await loader;
  progress();
  const stored = await findSnapshot(snapshotKey);
  const start = async (options) => {
    const engine = await withModule(here(dir), ownModule || compiled, prefetched);
    const [pyodide] = await Promise.all([
      Promise.race([loadPyodide({ indexURL: here(dir), ...options, ...engine.options }), engine.failure]),
      downloads,
    ]);
    progress();
    return pyodide;
  };
  const ready = async (pyodide) => {
    installWheel(pyodide, new Uint8Array(await wheelBytes));
    return pyodide.pyimport("calculators.bridge").evaluate_json;
  };
  if (stored) {
    // Trusted only if its bytes are those stored (SHA-256 kept beside them) and it then gives the
    // build's answers. Anything else: drop it, start in full, store a new one.
    try {
      // Checked before Pyodide sees it (restoring damaged memory is a fatal error), while the
      // rest of the start goes on.
      const bytes = stored.arrayBuffer().then(async (buffer) => {
        if (!(await snapshotIntact(buffer, stored))) throw new Error("checksum mismatch");
        return buffer;
      });
      bytes.catch(() => {}); // handled below (start() fails with it), even if it fails before Pyodide awaits it
      const pyodide = await start({ _loadSnapshot: bytes });
      const evaluateJson = await ready(pyodide);
      selfTest(evaluateJson, checks);
      return { evaluateJson, start: "snapshot", keepSnapshot: null, drop: () => dropSnapshot(snapshotKey) };
    } catch (error) {
      // A file that did not arrive is no fault of the snapshot: it is kept for the retry (a full
      // start would fail the same way).
      if (await downloads.then(() => false, () => true)) throw error;
      console.warn("engine snapshot refused, starting in full:", error);
      await dropSnapshot(snapshotKey);
    }
  }
  const pyodide = await start({ _makeSnapshot: true });
  const evaluateJson = await ready(pyodide);
  return {
    evaluateJson,
    start: "full",
    drop: null,
    // Copies the memory at once (synchronously), then stores it; false when either fails: that costs only speed.
    keepSnapshot: () => {
      let bytes;
      try {
        bytes = pyodide.makeMemorySnapshot();
      } catch (error) {
        console.warn("engine snapshot not taken:", error);
        return false;
      }
      return storeSnapshot(snapshotKey, bytes);
    },
  };
}

const engine = boot();
engine.then(
  async ({ start, keepSnapshot }) => {
    postMessage({ type: "ready", start });
    // The copy is made before this worker reads any message (the handler below awaits `engine`
    // later), so the snapshot holds no user input.
    if (keepSnapshot && await keepSnapshot()) postMessage({ type: "snapshot-stored" });
  },
  (error) => postMessage({ type: "failed", detail: String(error && error.message || error) }),
);

self.onmessage = async (event) => {
  if (event.data.type === "module") return receiveModule(event.data.module);
  const { seq, calc, inputs, lang } = event.data;
  let evaluateJson, drop;
  try {
    ({ evaluateJson, drop } = await engine);
  } catch {
    return; // "failed" was already reported
  }
  try {
    const verdict = JSON.parse(evaluateJson(calc, JSON.stringify(inputs), lang));
    postMessage({ type: "verdict", seq, verdict });
  } catch (error) {
    if (drop) { // a restored engine failing: suspect the snapshot, never show its error
      await drop();
      postMessage({ type: "engine-damaged" });
      return;
    }
    postMessage({ type: "internal", seq, detail: String(error && error.message || error) });
  }
};
