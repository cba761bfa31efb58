// Fast repeat start: a Pyodide memory snapshot of the started engine, kept on this device in Cache
// Storage (one entry, keyed by the content-hashed engine and wheel), taken before any input is read.
// Trusted only if its SHA-256 matches and it passes the self-test (DESIGN.md, "Failure handling").

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
