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

// Bytes read of the files this worker downloads, against their total (ENGINE.sizes): the page's
// progress bar. Reported at most twice a second, and once more 500 ms after bytes that came too
// soon after a report: a burst then a pause would otherwise show what had arrived before the burst.
const BEAT_MS = 500;
const download = { done: 0, total: 0 };
let lastBeat = 0;
let trailing = null;
function progress(bytes = 0) {
  download.done += bytes;
  const wait = lastBeat + BEAT_MS - Date.now();
  if (wait <= 0) beat();
  else trailing ??= setTimeout(beat, wait);
}

function beat() {
  clearTimeout(trailing);
  trailing = null;
  lastBeat = Date.now();
  postMessage({ type: "progress", done: Math.min(download.done, download.total), total: download.total });
}

// The download, its bytes reported as they arrive (progress), failing on an HTTP error. A retry
// after a failed start (`fresh`) asks past the HTTP cache, which may keep a damaged immutable answer.
async function fetchOk(url, fresh) {
  const response = await fetch(url, fresh ? { cache: "reload" } : {});
  if (!response.ok) {
    // The server answered: the file is missing or broken, and asking again gets the same answer
    // (calc.js retries a start unseen only when a request got no answer).
    // A 502 from our service worker with its header: the server keeps sending other bytes (web/sw.js).
    const damaged = response.headers.has("x-engine-damaged");
    throw Object.assign(new Error(`${url}: HTTP ${response.status}`), { answered: true, damaged });
  }
  progress();
  const counted = new TransformStream({ transform(chunk, out) { progress(chunk.byteLength); out.enqueue(chunk); } });
  return new Response(response.body.pipeThrough(counted), { status: response.status, headers: response.headers });
}

// Each engine file's bytes must be those the build hashed (engine-start.js: ENGINE.sha256, the
// first hex digits of each file's SHA-256): a half-finished deploy, a proxy or a venue's portal can
// answer 200 with other bytes. Checked here with the Web Crypto digest rather than fetch()'s
// `integrity` option, whose failure cannot be told from a dropped connection (and which holds the
// wasm back from its streaming compile until the last byte).
async function check(path, bytes, expected) {
  const hash = await sha256(bytes);
  if (!hash.startsWith(expected[path])) {
    throw Object.assign(new Error(`${path}: the server's answer does not match the build`), { answered: true, damaged: true });
  }
}

// A checked download: a Response of the same bytes and headers once they match.
async function fetchChecked(path, files) {
  const response = await fetchOk(files.url(path), files.fresh);
  const bytes = await response.arrayBuffer();
  await check(path, bytes, files.expected);
  return new Response(bytes, { status: response.status, headers: response.headers });
}

// The engine's modules, imported (import() cannot check bytes): when a start fails otherwise
// unexplained, a fetch of each (from the HTTP cache) tells whether one was damaged (probe).
const MODULES = ["pyodide.mjs", "pyodide.asm.mjs"];

// The error a failed start reports: `error`, unless a module it imported is not the build's or
// was refused (an empty pyodide.mjs imports fine and fails later as "not a function").
async function probe(error, dir, files) {
  if (error && (error.damaged || error.answered)) return error;
  for (const name of MODULES) {
    try {
      const response = await fetchOk(files.url(`${dir}${name}`), files.fresh);
      await check(`${dir}${name}`, await response.arrayBuffer(), files.expected);
    } catch (found) {
      if (found.answered) return found;
    }
  }
  return error;
}

// The wasm, compiled as it arrives and checked beside it (the same bytes, teed): a module only
// once they match; a damaged file is reported as damaged, whatever the compiler made of it.
async function compileChecked(path, files) {
  const response = await fetchOk(files.url(path), files.fresh);
  const [toCompile, toCheck] = response.body.tee();
  const checked = new Response(toCheck).arrayBuffer().then((bytes) => check(path, bytes, files.expected));
  const compiled = WebAssembly.compileStreaming(new Response(toCompile, { headers: response.headers }));
  const [hash, module] = await Promise.allSettled([checked, compiled]);
  if (hash.status === "rejected") throw hash.reason;
  if (module.status === "rejected") throw module.reason;
  return module.value;
}

// Fast repeat start: a Pyodide memory snapshot of the started engine, kept on this device in Cache
// Storage (one entry, keyed by the content-hashed engine and wheel), taken before any input is read.
// Trusted only if its SHA-256 matches and it passes the self-test (DESIGN.md, "Failure handling").
const SNAPSHOTS = "engine-snapshot";
const DIGEST = "x-engine-sha256";

async function sha256(bytes) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// Stored sparse: about half of the started engine's memory is pages of zeros, which are left out.
// The stored bytes are the other pages in order, then a bitmap of which pages they are, then the
// memory's length (uint32, little-endian). The first page is never zero (Pyodide's header), so they
// start as Pyodide's own snapshot does. Half the bytes to read and to check on every start.
const PAGE = 4096;

function pack(memory) {
  if (memory.byteOffset % 4) memory = memory.slice(); // aligned, for the word view below
  const words = new Uint32Array(memory.buffer, memory.byteOffset, memory.length >> 2);
  const pages = Math.ceil(memory.length / PAGE);
  const map = new Uint8Array(Math.ceil(pages / 8));
  const kept = [];
  for (let i = 0; i < pages; i++) {
    const end = Math.min((i + 1) * PAGE, memory.length);
    let used = false;
    for (let w = i * (PAGE >> 2); w < end >> 2 && !used; w++) used = words[w] !== 0;
    for (let b = end & ~3; b < end && !used; b++) used = memory[b] !== 0; // a last page's odd bytes
    if (used) {
      map[i >> 3] |= 1 << (i & 7);
      kept.push(memory.subarray(i * PAGE, end));
    }
  }
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, memory.length, true);
  return new Blob([...kept, map, length]);
}

// The memory that `stored` (an ArrayBuffer) was packed from; a layout that does not add up is no
// snapshot of ours.
function unpack(stored) {
  const bytes = new Uint8Array(stored);
  const size = bytes.length >= 4 ? new DataView(stored).getUint32(bytes.length - 4, true) : 0;
  const pages = Math.ceil(size / PAGE);
  const mapStart = bytes.length - 4 - Math.ceil(pages / 8);
  if (!size || mapStart < 0) throw new Error("not a snapshot");
  const map = bytes.subarray(mapStart, bytes.length - 4);
  const memory = new Uint8Array(size);
  let at = 0;
  for (let i = 0; i < pages; i++) {
    if (!(map[i >> 3] & (1 << (i & 7)))) continue;
    const length = Math.min(PAGE, size - i * PAGE);
    if (at + length > mapStart) throw new Error("not a snapshot");
    memory.set(bytes.subarray(at, at + length), i * PAGE);
    at += length;
  }
  if (at !== mapStart) throw new Error("not a snapshot");
  return memory;
}

// The snapshot stored for `key`: null when there is none (none yet, or no Cache Storage: private
// modes), else { memory }: a promise of it once its stored bytes are checked against the SHA-256
// stored with them (a mismatch rejects), so that Pyodide never sees damaged memory (restoring it
// is a fatal error).
async function findSnapshot(key) {
  let response;
  try {
    response = await (await caches.open(SNAPSHOTS)).match(key);
  } catch {
    return null;
  }
  if (!response) return null;
  const memory = response.arrayBuffer().then(async (stored) => {
    if (response.headers.get(DIGEST) !== await sha256(stored)) throw new Error("checksum mismatch");
    return unpack(stored);
  });
  memory.catch(() => {}); // handled where the start awaits it, even if it fails before that
  return { memory };
}

// Store `memory` (a Uint8Array) as the one snapshot; true when stored. Failing (quota, private
// mode) costs only speed.
async function storeSnapshot(key, memory) {
  try {
    const stored = await pack(memory).arrayBuffer();
    const cache = await caches.open(SNAPSHOTS);
    for (const old of await cache.keys()) if (old.url !== key) await cache.delete(old);
    await cache.put(key, new Response(stored, { headers: { [DIGEST]: await sha256(stored) } }));
    return true;
  } catch (error) {
    console.warn("engine snapshot not stored:", error);
    return false;
  }
}

async function dropSnapshot(key) {
  try {
    await (await caches.open(SNAPSHOTS)).delete(key);
  } catch {
    // nothing stored, nothing to drop
  }
}

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

// The engine's answers to the build's examples (computed by CPython at build time: engine-start.js)
// must be the same here: a restored snapshot is trusted only once it gives them. A full start runs
// them too before its snapshot is taken, so that the snapshot holds their catalogs and code warm:
// the restored engine's self-test and first answers then do no first-time work.
function selfTest(evaluateJson, checks) {
  for (const [calc, inputs, lang, expected] of checks) {
    const got = evaluateJson(calc, JSON.stringify(inputs), lang);
    if (got !== expected) throw new Error(`self-test ${calc}/${lang}: ${got} != ${expected}`);
  }
}

// The worker's name: the content-hashed engine directory and wheel, and the self-test (engine-start.js).
// compileWasm: the page leaves the wasm to this worker (a first visit: engine-start.js), so it is
// downloaded with the other files, its progress reported. sha256: each engine file's expected
// digest; fresh: this start retries one that failed on what the server sent (calc.js), so every
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
  const loader = Promise.all([import(files.url(`${dir}pyodide.mjs`)), import(files.url("engine-module.js"))]);
  const runtime = import(files.url(`${dir}pyodide.asm.mjs`)); // withModule() imports it again: one load
  // Keyed by the address Pyodide asks for (engine-module.js answers it with this download).
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
  Promise.all([loader, downloads]).then(() => postMessage({ type: "downloaded" }), () => {});
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
    postMessage({ type: "ready", start });
    // The copy is made in this same task, before this worker reads any message (the handler below
    // awaits `engine` later), so the snapshot holds no user input.
    const memory = takeSnapshot ? takeSnapshot() : null;
    if (memory && await storeLater(snapshotKey, memory)) postMessage({ type: "snapshot-stored" });
  },
  (error) => postMessage({ type: "failed", ...failure(error) }),
);

// What the page needs to know of a failed start: whether the server answered (an HTTP error, or
// bytes that do not match the build: `damaged`), and whether, neither answered nor dropped, it
// could be what a file held (`suspect`: a retry then asks past the caches, calc.js). A dropped
// request fails fetch() and import() with a TypeError naming the fetch.
function failure(error) {
  const detail = String(error && error.message || error);
  const dropped = error instanceof TypeError && /fetch/i.test(detail);
  const answered = Boolean(error && error.answered);
  return { detail, answered, damaged: Boolean(error && error.damaged), suspect: !dropped && !answered };
}

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
    answered();
  } catch (error) {
    if (drop) { // a restored engine failing: suspect the snapshot, never show its error
      await drop();
      postMessage({ type: "engine-damaged" });
      return;
    }
    postMessage({ type: "internal", seq, detail: String(error && error.message || error) });
  }
};
