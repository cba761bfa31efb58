// Service worker: the whole site offline after one visit. The build writes site/sw.js as
// `const PRECACHE = {version, shell, engine, sizes}` and an importScripts of web/offline/sw-files.js,
// web/offline/sw-copy.js and this file (sitebuild/contract.py, sitebuild/offline.py).
//
// Hand-written rather than Workbox, for two tiers: the shell at install, the engine once a page
// has loaded (DESIGN.md, "Decisions").
//
// Caches: "shell-<version>" holds one release's shell. "engine-verified" holds the engine and
// wheel files, whose paths carry a content hash (immutable), so a new release reuses the ones it
// shares with the old one and activation drops the rest.
//
// The files' trust and storage are web/offline/sw-files.js; the offline copy's check, paid once,
// web/offline/sw-copy.js (both imported before this file, into one global scope).
//
// Messages from pages: {type: "check-offline-copy"} (sent once a page has loaded, again when it
// goes offline, is shown again, and now and then while shown: complete the shell, then fetch the
// engine in the background; answers every page {type: "offline-ready"} when every file is stored
// and was checked, else {type: "offline-incomplete", why}) and {type: "skip-waiting"}. A stored
// file found missing or damaged tells every page {type: "offline-incomplete"} too. `why`: "full"
// (the phone's storage refused a file: it cannot keep a copy, and every file comes from the
// network), "host" (the host answered with an error or other bytes), "network" (no answer).
/* global SCOPE, SHELL_CACHE, ENGINE_CACHE, OLD_CACHES, url, fetchChecked, ENGINE_MODES, hashed, sized, checked,
   whyOf, fault, store, fillShell, fillEngine, tellPages, roomMayBeBack, checkCopy */

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
      roomMayBeBack();
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
// offline: connect, then reload"; html[data-offline-missing], web/site/site.css), with status 503.
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
