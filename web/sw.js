// Service worker: the whole site offline after one visit. The build writes site/sw.js as
// `const PRECACHE = {version, shell, engine, sizes}` and an importScripts of this file
// (sitebuild/contract.py, sitebuild/offline.py).
//
// Hand-written rather than Workbox, for two tiers: the shell at install, the engine once a page
// has loaded (DESIGN.md, "Decisions").
//
// Caches: "shell-<version>" holds one release's shell. "engine-verified" holds the engine and
// wheel files, whose paths carry a content hash (immutable), so a new release reuses the ones it
// shares with the old one and activation drops the rest.
//
// Trust (DESIGN.md, "Failure handling"): nothing is stored unless its SHA-256 matches the
// revision the build wrote for it, and a stored file is checked again before it is served; a
// file that fails is dropped and fetched again (bypassing the HTTP cache, which may hold the
// same damaged answer), and a damaged answer is passed on, never kept.
//
// The check, paid once (DESIGN.md, "Failure handling"): every stored file is hashed against its
// revision once per release (and again after any fault), and that is recorded as the last entry of
// each cache; each page view then only reads the caches' lists of entries: a file removed since is
// missing, a file stored again since (a put moves its entry to the end: Cache Storage keeps entries
// in order) comes after the record. A file is also checked when it is served: hashed the first time
// in this worker's life, its size after that; a file found missing, short or damaged is a fault,
// which drops the record.
//
// Messages from pages: {type: "check-offline-copy"} (sent once a page has loaded, again when it
// goes offline, is shown again, and now and then while shown: complete the shell, then fetch the
// engine in the background; answers every page {type: "offline-ready"} when every file is stored
// and was checked, else {type: "offline-incomplete", why}) and {type: "skip-waiting"}. A stored
// file found missing or damaged tells every page {type: "offline-incomplete"} too. `why`: "full"
// (the phone's storage refused a file: it cannot keep a copy, and every file comes from the
// network), "host" (the host answered with an error or other bytes), "network" (no answer).

const SCOPE = new URL("./", self.location.href);
const SHELL_CACHE = `shell-${PRECACHE.version}`;
const ENGINE_CACHE = "engine-verified";
const OLD_CACHES = ["engine"]; // an earlier release's engine cache, filled before files were checked
const url = (key) => new URL(key, SCOPE).href;
// The header of the 502 this worker answers for an engine file whose bytes the server keeps damaging
// (engine-protocol.js DAMAGED_HEADER: a classic script cannot import it).
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
  // told why (web/worker.js reads the header).
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

// Every file of this release still stored at its build size (none hashed; asked all at once: one
// at a time, the storage's round trips made the check ~3x slower).
async function allStored() {
  const found = await Promise.all(CACHES.map(async ([name, keys]) => {
    const cache = await caches.open(name);
    return Promise.all(Object.keys(keys).map(async (key) => {
      const stored = await cache.match(url(key));
      return Boolean(stored && (await stored.blob()).size === PRECACHE.sizes[key]);
    }));
  }));
  return found.flat().every(Boolean);
}

// Every file of this release stored, none stored again, since the record was written (two reads a
// cache, no byte of a file read).
async function checkedBefore() {
  for (const [name, keys] of CACHES) {
    const cache = await caches.open(name);
    const stored = (await cache.keys()).map((request) => request.url);
    const present = new Set(stored);
    if (stored.at(-1) !== CHECKED || !Object.keys(keys).every((key) => present.has(url(key)))) return false;
    if ((await (await cache.match(CHECKED)).text()) !== PRECACHE.version) return false;
  }
  return true;
}

async function record() {
  for (const [name] of CACHES) {
    const cache = await caches.open(name);
    await cache.delete(CHECKED); // then written last
    await cache.put(CHECKED, new Response(PRECACHE.version));
  }
}

// "Ready" is claimed of nothing less than every file of this release stored and found the build's:
// hashed once (then remembered), every file's presence and size on each later check. A fault during
// the check (a page was served a damaged or missing file meanwhile) starts it over, so "ready" never
// follows an "incomplete" that a concurrent fetch sent.
async function checkCopy() {
  for (let round = 0; round < 3; round++) {
    const seen = faults;
    if (!(await checkedBefore())) {
      await forget();
      await fillShell(); // hashes what is stored (once in this worker's life), fetches what is missing
      await fillEngine();
      if (!(await allStored())) return false;
      await record();
    }
    if (faults === seen) return true;
  }
  return false;
}

async function tellPages(type, why = storageFull ? "full" : null) {
  const message = type === "offline-incomplete" && why ? { type, why } : { type };
  for (const client of await self.clients.matchAll({ includeUncontrolled: true })) client.postMessage(message);
}

// Installing stores this release's shell; a phone without room for it still installs (its pages
// then come from the network, and say the phone cannot keep a copy), or it would stay on the
// previous release for good.
const unlessFull = (error) => {
  if (error.name !== "QuotaExceededError") throw error;
};

// A failed install (a shell file missing or damaged at the host, a portal page, the network gone)
// is said to the pages, with why, before the browser drops this worker; the next visit tries again.
self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    await fillShell().catch(unlessFull).catch(async (error) => {
      await tellPages("offline-incomplete", whyOf(error));
      throw error;
    });
    // A device that kept the previous engine for offline use gets the new one before this
    // release may take over, so it never wakes up offline with pages but no engine.
    const kept = await Promise.all([ENGINE_CACHE, ...OLD_CACHES].map(async (name) =>
      (await caches.has(name)) && (await (await caches.open(name)).keys()).length > 0));
    if (kept.some(Boolean)) {
      await fillEngine().catch(unlessFull).catch(async (error) => {
        await tellPages("offline-incomplete", whyOf(error));
        throw error;
      });
    }
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if ((name.startsWith("shell-") && name !== SHELL_CACHE) || OLD_CACHES.includes(name)) await caches.delete(name);
    }
    const engine = await caches.open(ENGINE_CACHE);
    const current = new Set(Object.keys(PRECACHE.engine).map(url));
    for (const request of await engine.keys()) {
      if (!current.has(request.url)) await engine.delete(request);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  const { type } = event.data || {};
  if (type === "skip-waiting") self.skipWaiting();
  if (type === "check-offline-copy") {
    // Also refills a shell whose cache was deleted under a running service worker (storage
    // pressure, site data half cleared): "ready" is said only of a complete, checked copy.
    event.waitUntil((async () => {
      storageFull = false; // until a file is refused again: the phone may have room now
      try {
        await tellPages((await checkCopy()) ? "offline-ready" : "offline-incomplete");
      } catch (error) {
        console.warn("offline copy incomplete:", error); // offline or a damaged answer: the next visit tries again
        await tellPages("offline-incomplete", whyOf(error));
      }
    })().catch(() => {}));
  }
});

// "fr/naruto/index.html?x=1" and "fr/naruto/" are the same page.
function keyOf(requestUrl) {
  const target = new URL(requestUrl);
  if (target.origin !== SCOPE.origin || !target.pathname.startsWith(SCOPE.pathname)) return null;
  const key = target.pathname.slice(SCOPE.pathname.length);
  return key.endsWith("index.html") ? key.slice(0, -"index.html".length) : key;
}

// A stored file, checked (hashed the first time in this worker's life, its size after that); one
// that fails is dropped (a fault: the pages are told the copy is incomplete) and fetched again. An engine file from the network is checked too: a matching one is stored, a
// damaged one refused with a 502 that says so, and one the phone has no room for served all the
// same. A shell file missing from the cache comes from the network as it is (a venue's portal page
// is what the judge needs); either missing file withdraws the "ready" the pages show.
async function fromCache(cacheName, request, key) {
  const cache = await caches.open(cacheName);
  const isEngine = cacheName === ENGINE_CACHE;
  const fresh = new URL(request.url).searchParams.has("fresh");
  const stored = await cache.match(url(key));
  if (stored) {
    const good = hashed.has(key) && !fresh ? await sized(key, stored) : await checked(key, stored);
    if (good) {
      hashed.add(key);
      return good;
    }
    await cache.delete(url(key));
    hashed.delete(key);
  }
  await fault();
  tellPages("offline-incomplete");
  if (!isEngine) return fetch(request);
  try {
    const good = await fetchChecked(key, fresh ? ["reload"] : ENGINE_MODES);
    await store(cache, key, good.clone()).catch((error) => {
      console.warn("not kept for offline use:", error);
      tellPages("offline-incomplete"); // says why when the phone is full
    });
    return good;
  } catch (error) {
    if (error.response) return error.response;
    throw error;
  }
}

// Offline, an address that is not a stored page gets what a host would answer: a folder named
// without its slash is redirected, anything else is the stored 404 page with status 404. A page of
// the site whose stored copy is missing or damaged gets that page's other lines ("not available
// offline: connect, then reload"; html[data-offline-missing], web/calc.css), with status 503.
async function offlineAnswer(request, key) {
  if (`${key}/` in PRECACHE.shell) {
    const target = new URL(request.url);
    target.pathname += "/";
    return Response.redirect(target.href, 301);
  }
  const stored = await (await caches.open(SHELL_CACHE)).match(url("404.html"));
  const page = stored && (await checked("404.html", stored));
  if (!page) return Response.error(); // the site's own answer is gone too
  if (!(key in PRECACHE.shell)) return new Response(page.body, { status: 404, statusText: "Not Found", headers: page.headers });
  const headers = new Headers(page.headers);
  headers.delete("content-length");
  const body = (await page.text()).replace("<html ", "<html data-offline-missing ");
  return new Response(body, { status: 503, statusText: "Service Unavailable", headers });
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const key = keyOf(request.url);
  if (key === null) return;
  if (key in PRECACHE.shell) {
    // A page whose stored copy is missing or damaged, offline: the site's own answer, not the browser's.
    const page = fromCache(SHELL_CACHE, request, key);
    event.respondWith(request.mode === "navigate" ? page.catch(() => offlineAnswer(request, key)) : page);
  } else if (key in PRECACHE.engine) {
    event.respondWith(fromCache(ENGINE_CACHE, request, key));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => offlineAnswer(request, key)));
  }
});
