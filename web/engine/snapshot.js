// The engine's memory snapshot (worker.js): its stored format and its place in Cache Storage.
import { sha256Hex } from "../shared/digest.js";

// Fast repeat start: a Pyodide memory snapshot of the started engine, kept on this device in Cache
// Storage (one entry, keyed by the content-hashed engine and wheel), taken before any input is read.
// Trusted only if its SHA-256 matches and it passes the self-test (DESIGN.md, "Failure handling").
const SNAPSHOTS = "engine-snapshot";
const DIGEST = "x-engine-sha256";

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
export async function findSnapshot(key) {
  let response;
  try {
    response = await (await caches.open(SNAPSHOTS)).match(key);
  } catch {
    return null;
  }
  if (!response) return null;
  const memory = response.arrayBuffer().then(async (stored) => {
    if (response.headers.get(DIGEST) !== await sha256Hex(stored)) throw new Error("checksum mismatch");
    return unpack(stored);
  });
  memory.catch(() => {}); // handled where the start awaits it, even if it fails before that
  return { memory };
}

// Store `memory` (a Uint8Array) as the one snapshot; true when stored. Failing (quota, private
// mode) costs only speed.
export async function storeSnapshot(key, memory) {
  try {
    const stored = await pack(memory).arrayBuffer();
    const cache = await caches.open(SNAPSHOTS);
    for (const old of await cache.keys()) if (old.url !== key) await cache.delete(old);
    await cache.put(key, new Response(stored, { headers: { [DIGEST]: await sha256Hex(stored) } }));
    return true;
  } catch (error) {
    console.warn("engine snapshot not stored:", error);
    return false;
  }
}

export async function dropSnapshot(key) {
  try {
    await (await caches.open(SNAPSHOTS)).delete(key);
  } catch {
    // nothing stored, nothing to drop
  }
}
