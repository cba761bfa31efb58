// The service worker's files (a classic script, imported before web/offline/sw.js: sitebuild/contract.py):
// fetch one file and check it against the build's revision, keep it, find it stored and good.
//
// Trust (DESIGN.md, "Failure handling"): nothing is stored unless its SHA-256 matches the
// revision the build wrote for it, and a stored file is checked again before it is served; a
// file that fails is dropped and fetched again (bypassing the HTTP cache, which may hold the
// same damaged answer), and a damaged answer is passed on, never kept.
/* exported faults, roomMayBeBack, OLD_CACHES, whyOf, CACHES, fault, forget, fillShell, fillEngine, tellPages */

const SCOPE = new URL("./", self.location.href);
const SHELL_CACHE = `shell-${PRECACHE.version}`;
const ENGINE_CACHE = "engine-verified";
const OLD_CACHES = ["engine"]; // an earlier release's engine cache, filled before files were checked
const url = (key) => new URL(key, SCOPE).href;
// The header of the 502 this worker answers for an engine file whose bytes the server keeps damaging
// (engine/protocol.js DAMAGED_HEADER: a classic script cannot import it).
const DAMAGED = "x-engine-damaged";
const revision = (key) => PRECACHE.shell[key] ?? PRECACHE.engine[key];
// The check's record, the last entry of each cache once every file in it was found the build's: this
// release's version.
const CHECKED = url("offline-copy-checked");

// The build's revision is the first hex digits of the file's SHA-256 (sitebuild/engine.py digest).
async function matches(key, bytes) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = Array.from(hash, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return hex.startsWith(revision(key));
}

// `response` read whole and checked against `key`'s revision: a new Response of the same bytes
// and headers, or null when they do not match.
async function checked(key, response) {
  const bytes = await response.arrayBuffer();
  if (!(await matches(key, bytes))) return null;
  return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
}

// `key` from the network, checked against its revision, asked with each cache mode in turn until
// its bytes match. An HTTP error throws with the answer as it came (`.response`).
async function fetchChecked(key, modes) {
  for (const mode of modes) {
    const response = await fetch(url(key), { cache: mode });
    if (!response.ok) throw Object.assign(new Error(`${key}: HTTP ${response.status}`), { response });
    const good = await checked(key, response);
    if (good) return good;
  }
  // Not the build's bytes after every mode: never stored, never handed to the engine, which is
  // told why (web/engine/worker.js reads the header).
  const refusal = new Response(null, { status: 502, statusText: "Damaged", headers: { [DAMAGED]: key } });
  throw Object.assign(new Error(`${key}: the server's answer does not match the build`), { response: refusal });
}

// The shell is revalidated; an engine file (content-hashed, immutable) may come from the HTTP
// cache, where a first visit's worker has just put it: it is not downloaded twice. Either is
// asked once more past the HTTP cache when it does not match (a damaged immutable answer stays
// there for a year).
const SHELL_MODES = ["no-cache", "reload"];
const ENGINE_MODES = ["default", "reload"];

// Files hashed against their revision in this worker's life: served again after a size check only.
// A request with `fresh` in its query (a page's retry after a failed start: calc-engine.js) checks again.
const hashed = new Set();

// A stored response with the build's size for `key`, as a new response, else null (consumed).
async function sized(key, stored) {
  const blob = await stored.blob();
  if (blob.size !== PRECACHE.sizes[key]) return null;
  return new Response(blob, { status: stored.status, statusText: stored.statusText, headers: stored.headers });
}

// Why a fill failed, in a word for the page: the phone's storage, the host, or the network.
const whyOf = (error) => (error?.name === "QuotaExceededError" ? "full" : error?.response ? "host" : "network");

const CACHES = [[SHELL_CACHE, PRECACHE.shell], [ENGINE_CACHE, PRECACHE.engine]];

// A stored file found missing or damaged, or refused: the record is dropped until the check is made again.
let faults = 0;
async function forget() {
  for (const [name] of CACHES) await (await caches.open(name)).delete(CHECKED);
}
async function fault() {
  faults += 1;
  await forget();
}

// A storage error (the phone's quota: QuotaExceededError) costs offline use only, never an answer:
// the file is served from the network all the same, and the pages are told the phone is full.
let storageFull = false;
// A new check: the phone may have room now (until a file is refused again).
const roomMayBeBack = () => { storageFull = false; };
async function store(cache, key, response) {
  try {
    await cache.put(url(key), response);
    hashed.add(key);
  } catch (error) {
    await fault();
    if (error.name !== "QuotaExceededError") throw error;
    storageFull = true;
    throw error;
  }
}

// `key` is in `cache` with the build's bytes (hashed once in this worker's life, its size after
// that); a stored copy that is not is dropped (refilled later).
async function storedGood(cache, key) {
  const stored = await cache.match(url(key));
  if (!stored) return false;
  if (hashed.has(key) ? await sized(key, stored) : await checked(key, stored)) {
    hashed.add(key);
    return true;
  }
  await cache.delete(url(key));
  hashed.delete(key);
  return false;
}

async function fillShell() {
  const cache = await caches.open(SHELL_CACHE);
  await Promise.all(Object.keys(PRECACHE.shell).map(async (key) => {
    if (!(await storedGood(cache, key))) await store(cache, key, await fetchChecked(key, SHELL_MODES));
  }));
}

let engineFill = null;
function fillEngine() {
  engineFill ??= (async () => {
    const cache = await caches.open(ENGINE_CACHE);
    for (const key of Object.keys(PRECACHE.engine)) { // one at a time: a background job
      if (!(await storedGood(cache, key))) await store(cache, key, await fetchChecked(key, ENGINE_MODES));
    }
  })().finally(() => { engineFill = null; });
  return engineFill;
}

async function tellPages(type, why = storageFull ? "full" : null) {
  const message = type === "offline-incomplete" && why ? { type, why } : { type };
  for (const client of await self.clients.matchAll({ includeUncontrolled: true })) client.postMessage(message);
}
