// The engine: Pyodide and our wheel, in a module Web Worker, all from this site.
// Its messages and failure kinds: engine/protocol.js. Its jobs: downloading and checking the files
// (engine/download.js), the memory snapshot (engine/snapshot.js), starting Pyodide on the page's
// compiled wasm (engine/module.js); here, the start itself and the answers.
import { compileChecked, download, fetchChecked, PREFETCHED, probe, progress } from "./download.js";
import { FAILURE, MESSAGE } from "./protocol.js";
import { dropSnapshot, findSnapshot, storeSnapshot } from "./snapshot.js";

// Paths are the build facts', relative to the folder the site's scripts ship in (calc/, this file's parent).
const here = (path) => new URL(path, new URL("../", import.meta.url)).href;
// The page sends the wasm compiled on its thread (or null) as its first message: engine/start.js.
let receiveModule;
const compiled = new Promise((resolve) => { receiveModule = resolve; });

// Our wheel, unpacked by Python itself: Pyodide's loadPackage leaves JS state behind that a
// memory snapshot refuses. Pure Python, no dependencies: unpacking installs it. Into site's own
// site-packages, not sysconfig's: sysconfig is imported for nothing else, and it and its data are
// 12 KB of the first visit's download and ~60 ms of compiling (the same lines: sitebuild/stdlib_trace.mjs).
function installWheel(pyodide, bytes) {
  pyodide.FS.writeFile("/tmp/engine.whl", bytes);
  pyodide.runPython(`
import site, zipfile
with zipfile.ZipFile("/tmp/engine.whl") as wheel:
    wheel.extractall(site.getsitepackages()[0])
`);
}

// The engine's answers to the build's examples (computed by CPython at build time: engine/start.js)
// must be the same here: a restored snapshot is trusted only once it gives them. A full start runs
// them too before its snapshot is taken, so that the snapshot holds their catalogs and code warm:
// the restored engine's self-test and first answers then do no first-time work.
function selfTest(evaluateJson, checks) {
  for (const [calc, inputs, lang, expected] of checks) {
    const got = evaluateJson(calc, JSON.stringify(inputs), lang);
    if (got !== expected) throw new Error(`self-test ${calc}/${lang}: ${got} != ${expected}`);
  }
}

// The worker's name: the content-hashed engine directory and wheel, and the self-test (engine/start.js).
// compileWasm: the page leaves the wasm to this worker (a first visit: engine/start.js), so it is
// downloaded with the other files, its progress reported. sha256: each engine file's expected
// digest; fresh: this start retries one that failed on what the server sent (calc-engine.js), so every
// file is asked past the caches (a new query: the HTTP cache keys by URL; the service worker
// checks its copy again).
const { wheel, pyodide: dir, checks, compileWasm, sha256: expected, sizes, fresh } = JSON.parse(self.name);
const files = { expected, fresh, url: (path) => here(fresh ? `${path}?fresh=${fresh}` : path) };
// What this worker reads through fetchOk: the wasm when it compiles it, the prefetched files, the wheel.
download.total = [...(compileWasm ? [`${dir}pyodide.asm.wasm`] : []), ...PREFETCHED.map((name) => `${dir}${name}`), wheel]
  .reduce((sum, path) => sum + (sizes?.[path] ?? 0), 0);

async function boot() {
  const snapshotKey = here(`snapshot/${dir}${wheel}`);
  // The stored snapshot is looked up, read and checked from the first step, beside the downloads:
  // Pyodide takes it before anything else.
  const found = findSnapshot(snapshotKey);
  // First, the largest file: compiled as it arrives (on this thread and V8's, not the page's); the
  // compile's end is also its download's end.
  const ownModule = compileWasm ? compileChecked(`${dir}pyodide.asm.wasm`, files) : null;
  // Every file is requested now, in the order needed (DESIGN.md): dynamic imports, since static
  // ones would hold this first step back by a round trip; withModule() reuses this runtime import.
  const loader = Promise.all([import(files.url(`${dir}pyodide.mjs`)), import(files.url("engine/module.js"))]);
  const runtime = import(files.url(`${dir}pyodide.asm.mjs`)); // withModule() imports it again: one load
  // Keyed by the address Pyodide asks for (engine/module.js answers it with this download).
  const prefetched = new Map(PREFETCHED.map((name) => [here(`${dir}${name}`), fetchChecked(`${dir}${name}`, files)]));
  // Our wheel is needed only once Python has started: on a first visit it is asked for once the wasm
  // has arrived, so that on a slow network it does not share the bandwidth the wasm waits on.
  const wheelBytes = (ownModule ? ownModule.catch(() => {}) : Promise.resolve())
    .then(() => fetchChecked(wheel, files)).then((response) => response.arrayBuffer());
  // A missing file cuts the start short with a clear error (Pyodide would log it and never settle;
  // a missing wasm or runtime script fails withModule(), a missing loader fails the import).
  const downloads = Promise.all([wheelBytes, ...prefetched.values(), ownModule, runtime]);
  downloads.catch(() => {}); // reported by the start that awaits them
  // Every file here: the page's stall watchdog stops watching this worker.
  Promise.all([loader, downloads]).then(() => postMessage({ type: MESSAGE.DOWNLOADED }), () => {});
  const [{ loadPyodide }, { withModule }] = await loader;
  progress();
  // A start that fails because a file failed reports that file's error (a damaged wasm also fails
  // to compile, but the page must hear that it was damaged).
  const start = async (options) => {
    try {
      const engine = await withModule(here(dir), ownModule || compiled, prefetched, files.url(`${dir}pyodide.asm.mjs`));
      const [pyodide] = await Promise.all([
        Promise.race([loadPyodide({ indexURL: here(dir), ...options, ...engine.options }), engine.failure]),
        downloads,
      ]);
      progress();
      return pyodide;
    } catch (error) {
      throw await downloads.then(() => error, (failed) => failed);
    }
  };
  const ready = async (pyodide) => {
    installWheel(pyodide, new Uint8Array(await wheelBytes));
    return pyodide.pyimport("calculators.bridge").evaluate_json;
  };
  // A snapshot is trusted only if its bytes are those stored and it then gives the build's
  // answers. Anything else: drop it, start in full, store a new one.
  const stored = await found;
  if (stored) {
    try {
      const pyodide = await start({ _loadSnapshot: stored.memory });
      const evaluateJson = await ready(pyodide);
      selfTest(evaluateJson, checks);
      return { evaluateJson, start: "snapshot", takeSnapshot: null, drop: () => dropSnapshot(snapshotKey) };
    } catch (error) {
      // A file that did not arrive is no fault of the snapshot: it is kept for the retry (a full
      // start would fail the same way).
      if (await downloads.then(() => false, () => true)) throw await downloads.catch((failed) => failed);
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
    // Runs the self-test (its first-time work then lives in the snapshot) and copies the memory at
    // once (synchronously: Pyodide's makeMemorySnapshot copies it); null when that fails: that costs
    // only speed. The copy is packed and stored later (storeLater).
    takeSnapshot: () => {
      try {
        selfTest(evaluateJson, checks);
        return pyodide.makeMemorySnapshot();
      } catch (error) {
        console.warn("engine snapshot not taken:", error);
        return null;
      }
    },
    snapshotKey,
  };
}

// Packing, hashing and storing the copy (~0.2 s of a phone's 4x slower CPU) wait for this worker's
// first verdict, or a second without one (a page that asks nothing at once), then a task more: the
// page's other first questions, sent with it and queued before that timer, are answered first, not
// behind them. What is stored is still the copy taken before any message was read.
let answered;
const firstAnswer = new Promise((resolve) => { answered = resolve; });
const STORE_AFTER_MS = 1000;
const nextTask = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

async function storeLater(key, memory) {
  await Promise.race([firstAnswer, nextTask(STORE_AFTER_MS)]);
  await nextTask();
  return storeSnapshot(key, memory);
}

const engine = boot().catch(async (error) => { throw await probe(error, dir, files); });
engine.then(
  async ({ start, takeSnapshot, snapshotKey }) => {
    postMessage({ type: MESSAGE.READY, start });
    // The copy is made in this same task, before this worker reads any message (the handler below
    // awaits `engine` later), so the snapshot holds no user input.
    const memory = takeSnapshot ? takeSnapshot() : null;
    if (memory && await storeLater(snapshotKey, memory)) postMessage({ type: MESSAGE.SNAPSHOT_STORED });
  },
  (error) => postMessage({ type: MESSAGE.FAILED, ...failure(error) }),
);

// What the page needs to know of a failed start, its kind (engine/protocol.js FAILURE): the server
// answered with other bytes (damaged) or an error status (refused), the request got no answer
// (dropped: fetch() and import() fail with a TypeError naming the fetch), or neither, and it could
// be what a file held (suspect: a retry then asks past the caches, calc-engine.js).
function failure(error) {
  const detail = String(error && error.message || error);
  if (error?.damaged) return { kind: FAILURE.DAMAGED, detail };
  if (error?.answered) return { kind: FAILURE.REFUSED, detail };
  const dropped = error instanceof TypeError && /fetch/i.test(detail);
  return { kind: dropped ? FAILURE.DROPPED : FAILURE.SUSPECT, detail };
}

self.onmessage = async (event) => {
  if (event.data.type === MESSAGE.MODULE) return receiveModule(event.data.module);
  const { seq, calc, inputs, lang } = event.data;
  let evaluateJson, drop;
  try {
    ({ evaluateJson, drop } = await engine);
  } catch {
    return; // "failed" was already reported
  }
  try {
    const verdict = JSON.parse(evaluateJson(calc, JSON.stringify(inputs), lang));
    postMessage({ type: MESSAGE.VERDICT, seq, verdict });
    answered();
  } catch (error) {
    if (drop) { // a restored engine failing: suspect the snapshot, never show its error
      await drop();
      postMessage({ type: MESSAGE.ENGINE_DAMAGED });
      return;
    }
    postMessage({ type: MESSAGE.INTERNAL, seq, detail: String(error && error.message || error) });
  }
};
