// A file's SHA-256 as hex, the form the build's digests take (sitebuild/engine.py digest(): their
// first hex digits). The service worker, a classic script, has its own copy (sw.js matches()).
export async function sha256Hex(bytes) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
