// The messages between the page (calc-engine.js, engine/start.js) and the engine's worker
// (worker.js), and the kinds of a failed start: one definition both sides import.
//
// page -> worker: {type: MODULE, module} (first: the wasm compiled on the page, or null)
//               | {type: EVAL, seq, calc, inputs, lang}
// worker -> page: {type: PROGRESS, done, total} (bytes arrived) | {type: DOWNLOADED} (every file here)
//               | {type: READY, start: "snapshot" | "full"} | {type: SNAPSHOT_STORED}
//               | {type: FAILED, kind, detail} | {type: VERDICT, seq, verdict} | {type: INTERNAL, seq, detail}
//               | {type: ENGINE_DAMAGED} (a restored snapshot failed after "ready": dropped; start again)
export const MESSAGE = Object.freeze({
  MODULE: "module", EVAL: "eval", PROGRESS: "progress", DOWNLOADED: "downloaded", READY: "ready",
  SNAPSHOT_STORED: "snapshot-stored", FAILED: "failed", VERDICT: "verdict", INTERNAL: "internal",
  ENGINE_DAMAGED: "engine-damaged",
});

// Why a start failed, as the page acts on it:
// - DROPPED: a request got no answer (a dropped connection): tried once more as it was;
// - SUSPECT: neither answered nor dropped, a file may hold something else than the build's (a
//   module that would not run): tried once more past the caches;
// - DAMAGED: the server answered with bytes that are not the build's: tried once more past the
//   caches, then said ("the server sends damaged files");
// - REFUSED: the server answered with an error status: the same answer again, not retried;
// - STALLED: no byte for STALL_MS: not retried (it has waited long enough), said;
// - BROKEN: a script of the page itself could not load: retried by reloading the page.
export const FAILURE = Object.freeze({
  DROPPED: "dropped", SUSPECT: "suspect", DAMAGED: "damaged", REFUSED: "refused", STALLED: "stalled", BROKEN: "broken",
});

// The header of the 502 the service worker answers for an engine file whose bytes the server keeps
// damaging (web/offline/sw.js writes it; sw.js is a classic script and repeats the name).
export const DAMAGED_HEADER = "x-engine-damaged";
