// The offline copy's check, paid once (a classic script, imported after web/offline/sw-files.js and before
// web/offline/sw.js: sitebuild/contract.py; DESIGN.md, "Failure handling"): every stored file is hashed
// against its revision once per release (and again after any fault), and that is recorded as the
// last entry of each cache; each page view then only reads the caches' lists of entries: a file
// removed since is missing, a file stored again since (a put moves its entry to the end: Cache
// Storage keeps entries in order) comes after the record. A file is also checked when it is served:
// hashed the first time in this worker's life, its size after that; a file found missing, short or
// damaged is a fault, which drops the record.
/* global CACHES, CHECKED, url, faults, forget, fillShell, fillEngine */
/* exported checkCopy */

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
