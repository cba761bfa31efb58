// Fast repeat start: a Pyodide memory snapshot of the started engine, kept on this device.
//
// Why (measured with tools/bench.py, Chromium 156, 2 cores): with the compiled wasm handed over
// by the page (engine-start.js, engine-module.js), most of a repeat start is Python starting up
// inside loadPyodide (~1.2-1.8 s of a ~1.6-2.2 s worker boot); unpacking our wheel and importing
// it add ~0.1 s. A snapshot of the wasm memory taken once all that is done (~31 MB) restores in
// ~0.15-0.2 s: a repeat or offline visit is ready ~0.4 s after navigation instead of ~1.6 s.
//
// How: the first start passes Pyodide's `_makeSnapshot` option (experimental, underscored, but
// part of loadPyodide's typed options), installs the wheel and imports the bridge,
// reports "ready", and only then copies the memory with `pyodide.makeMemorySnapshot()` - before
// the worker reads any message, so a snapshot never holds anything a user typed. It is stored in
// Cache Storage ("engine-snapshot", one entry) under a key made of the content-hashed engine
// directory and wheel path: a new release never restores an old snapshot, and storing a new one
// deletes the old. Later starts pass it as `_loadSnapshot`; if Pyodide refuses it (its build id
// check, a damaged entry), the worker starts in full and stores a fresh one.
//
// Files are not in the snapshot (the file system lives in JS), so the wheel is unpacked again on
// every start (~30 ms): the message catalogs are read from it on first use.
//
// A restored memory is trusted only if its bytes are the ones stored (a SHA-256 kept with them)
// and it then answers the build's self-test (worker.js): damaged storage once broke every
// calculator on a device for good.

const CACHE = "engine-snapshot";
const DIGEST = "x-engine-sha256";

async function sha256(bytes) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// True when `bytes` (read from `response`) are the ones that were stored.
export async function snapshotIntact(bytes, response) {
  return response.headers.get(DIGEST) === await sha256(bytes);
}

// The stored snapshot for `key` as a Response (its body not read yet), or null (none yet, or no
// Cache Storage: private modes).
export async function findSnapshot(key) {
  try {
    return (await (await caches.open(CACHE)).match(key)) || null;
  } catch {
    return null;
  }
}

// Store `bytes` as the one snapshot; true when stored. Failing (quota, private mode) costs only speed.
export async function storeSnapshot(key, bytes) {
  try {
    const cache = await caches.open(CACHE);
    for (const old of await cache.keys()) if (old.url !== key) await cache.delete(old);
    await cache.put(key, new Response(bytes, { headers: { [DIGEST]: await sha256(bytes) } }));
    return true;
  } catch (error) {
    console.warn("engine snapshot not stored:", error);
    return false;
  }
}

export async function dropSnapshot(key) {
  try {
    await (await caches.open(CACHE)).delete(key);
  } catch {
    // nothing stored, nothing to drop
  }
}
