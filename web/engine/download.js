// The engine's files, downloaded by its worker (worker.js): each one's bytes reported as they arrive
// (the page's progress bar and stall watchdog), and checked against the build's digest before use.
import { DAMAGED_HEADER, MESSAGE } from "./protocol.js";
import { sha256Hex } from "../shared/digest.js";

// Pyodide's standard library and lock file, downloaded from the worker's first step and handed to
// Pyodide (engine/module.js), which would ask for them only after its runtime script has run.
export const PREFETCHED = ["python_stdlib.zip", "pyodide-lock.json"];

// Bytes read of the files this worker downloads, against their total (ENGINE.sizes): the page's
// progress bar. Reported at most twice a second, and once more 500 ms after bytes that came too
// soon after a report: a burst then a pause would otherwise show what had arrived before the burst.
const BEAT_MS = 500;
export const download = { done: 0, total: 0 };
let lastBeat = 0;
let trailing = null;
export function progress(bytes = 0) {
  download.done += bytes;
  const wait = lastBeat + BEAT_MS - Date.now();
  if (wait <= 0) beat();
  else trailing ??= setTimeout(beat, wait);
}

function beat() {
  clearTimeout(trailing);
  trailing = null;
  lastBeat = Date.now();
  postMessage({ type: MESSAGE.PROGRESS, done: Math.min(download.done, download.total), total: download.total });
}

// The download, its bytes reported as they arrive (progress), failing on an HTTP error. A retry
// after a failed start (`fresh`) asks past the HTTP cache, which may keep a damaged immutable answer.
async function fetchOk(url, fresh) {
  const response = await fetch(url, fresh ? { cache: "reload" } : {});
  if (!response.ok) {
    // The server answered: the file is missing or broken, and asking again gets the same answer
    // (calc-engine.js retries a start unseen only when a request got no answer).
    // A 502 from our service worker with its header: the server keeps sending other bytes (web/offline/sw.js).
    const damaged = response.headers.has(DAMAGED_HEADER);
    throw Object.assign(new Error(`${url}: HTTP ${response.status}`), { answered: true, damaged });
  }
  progress();
  const counted = new TransformStream({ transform(chunk, out) { progress(chunk.byteLength); out.enqueue(chunk); } });
  return new Response(response.body.pipeThrough(counted), { status: response.status, headers: response.headers });
}

// Each engine file's bytes must be those the build hashed (build.js: ENGINE.sha256, the
// first hex digits of each file's SHA-256): a half-finished deploy, a proxy or a venue's portal can
// answer 200 with other bytes. Checked here with the Web Crypto digest rather than fetch()'s
// `integrity` option, whose failure cannot be told from a dropped connection (and which holds the
// wasm back from its streaming compile until the last byte).
async function check(path, bytes, expected) {
  const hash = await sha256Hex(bytes);
  if (!hash.startsWith(expected[path])) {
    throw Object.assign(new Error(`${path}: the server's answer does not match the build`), { answered: true, damaged: true });
  }
}

// A checked download: a Response of the same bytes and headers once they match.
export async function fetchChecked(path, files) {
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
export async function probe(error, dir, files) {
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
export async function compileChecked(path, files) {
  const response = await fetchOk(files.url(path), files.fresh);
  const [toCompile, toCheck] = response.body.tee();
  const checked = new Response(toCheck).arrayBuffer().then((bytes) => check(path, bytes, files.expected));
  const compiled = WebAssembly.compileStreaming(new Response(toCompile, { headers: response.headers }));
  const [hash, module] = await Promise.allSettled([checked, compiled]);
  if (hash.status === "rejected") throw hash.reason;
  if (module.status === "rejected") throw module.reason;
  return module.value;
}
