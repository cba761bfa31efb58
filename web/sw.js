// Service worker: the whole site offline after one visit. The build (sitebuild/offline.py)
// writes site/sw.js as `const PRECACHE = {version, shell, engine}` followed by this file.
//
// Hand-written rather than Workbox, for two tiers: the shell at install, the engine once a page
// has loaded (DESIGN.md, "Decisions").
//
// Caches: "shell-<version>" holds one release's shell. "engine" holds the engine and wheel
// files, whose paths carry a content hash (immutable), so a new release reuses the ones it
// shares with the old one and activation drops the rest.
//
// Messages from pages: {type: "cache-engine"} (sent once a page has loaded: fetch the engine
// in the background; answers {type: "offline-ready"} to every page) and {type: "skip-waiting"}.

const SCOPE = new URL("./", self.location.href);
const SHELL_CACHE = `shell-${PRECACHE.version}`;
const ENGINE_CACHE = "engine";
const url = (key) => new URL(key, SCOPE).href;

// A response to keep: only complete, successful, same-origin answers. The shell is revalidated;
// an engine file (content-hashed, immutable) may come from the HTTP cache, where a first visit's
// worker has just put it: it is not downloaded twice.
async function fetchOk(key, cache = "no-cache") {
  const response = await fetch(url(key), { cache });
  if (!response.ok) throw new Error(`${key}: HTTP ${response.status}`);
  return response;
}

async function fillShell() {
  const cache = await caches.open(SHELL_CACHE);
  await Promise.all(Object.keys(PRECACHE.shell).map(async (key) => {
    if (!(await cache.match(url(key)))) await cache.put(url(key), await fetchOk(key));
  }));
}

let engineFill = null;
function fillEngine() {
  engineFill ??= (async () => {
    const cache = await caches.open(ENGINE_CACHE);
    for (const key of Object.keys(PRECACHE.engine)) { // one at a time: a background job
      if (!(await cache.match(url(key)))) await cache.put(url(key), await fetchOk(key, "default"));
    }
  })().finally(() => { engineFill = null; });
  return engineFill;
}

async function engineCached() {
  const cache = await caches.open(ENGINE_CACHE);
  const found = await Promise.all(Object.keys(PRECACHE.engine).map((key) => cache.match(url(key))));
  return found.every(Boolean);
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    await fillShell();
    // A device that kept the previous engine for offline use gets the new one before this
    // release may take over, so it never wakes up offline with pages but no engine.
    const engine = await caches.open(ENGINE_CACHE);
    if ((await engine.keys()).length) await fillEngine();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("shell-") && name !== SHELL_CACHE) await caches.delete(name);
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
  if (type === "cache-engine") {
    event.waitUntil((async () => {
      await fillEngine();
      if (!(await engineCached())) return;
      for (const client of await self.clients.matchAll()) client.postMessage({ type: "offline-ready" });
    })().catch(() => {})); // offline or interrupted: the next visit tries again
  }
});

// "fr/naruto/index.html?x=1" and "fr/naruto/" are the same page.
function keyOf(requestUrl) {
  const target = new URL(requestUrl);
  if (target.origin !== SCOPE.origin || !target.pathname.startsWith(SCOPE.pathname)) return null;
  const key = target.pathname.slice(SCOPE.pathname.length);
  return key.endsWith("index.html") ? key.slice(0, -"index.html".length) : key;
}

async function fromCache(cacheName, request, key) {
  const cache = await caches.open(cacheName);
  return (await cache.match(url(key))) || fetch(request);
}

// Offline, an address that is not a stored page gets what a host would answer: a folder named
// without its slash is redirected, anything else is the stored 404 page with status 404.
async function offlineAnswer(request, key) {
  if (`${key}/` in PRECACHE.shell) {
    const target = new URL(request.url);
    target.pathname += "/";
    return Response.redirect(target.href, 301);
  }
  const page = await (await caches.open(SHELL_CACHE)).match(url("404.html"));
  return new Response(page.body, { status: 404, statusText: "Not Found", headers: page.headers });
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const key = keyOf(request.url);
  if (key === null) return;
  if (key in PRECACHE.shell) {
    event.respondWith(fromCache(SHELL_CACHE, request, key));
  } else if (key in PRECACHE.engine) {
    event.respondWith(fromCache(ENGINE_CACHE, request, key));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => offlineAnswer(request, key)));
  }
});
