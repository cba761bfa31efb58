// Fast engine start, worker side: Pyodide instantiates the wasm module compiled by the page.
//
// Why (measured with tools/bench.py and a bare worker boot, Chromium 156, 2 cores): compiling
// the 9.6 MB wasm is quick either way (~0.1 s with Liftoff); the boot is slow when the code
// then *runs* unoptimized. On the page's thread, WebAssembly.compileStreaming() gets
// Chromium's compiled-wasm cache (optimized code from the last visit, also for responses
// from the service worker's Cache Storage); in a dedicated worker it does not, so a worker
// booting Pyodide on its own was no faster on a repeat visit (~1.6-2.0 s against ~1.15 s
// for the warm main-thread floor). A Module compiled on the page (engine-start.js) and posted
// to the worker (Modules are structured-cloneable) brought the repeat worker boot to ~1.2 s;
// the memory snapshot (engine-snapshot.js) does the rest.
//
// Measured and rejected: the worker compiling the wasm itself from the start of its boot (no
// main-thread work at all). Start-up was no faster, and evaluations were slower even on a first
// visit, with no cache either way: input -> verdict p95 13-31 ms against 5-10 ms (60-line decklist:
// 31 against 10). Lighthouse's TBT median moved by less than its run-to-run spread.

// The worker: loadPyodide() options that instantiate the page's compiled module (a promise: Pyodide
// starts fetching and importing its other files meanwhile) and `failure`, a promise that rejects
// when the wasm cannot be instantiated - Pyodide itself would only log that and never settle.
// Without a module from the page (it failed to compile there), the worker compiles the wasm itself.
// Uses Pyodide's documented (experimental) createPyodideModule option; the two imports Pyodide
// adds are its own portable fallback (the one it uses where its tiny helper wasm cannot compile).
// `prefetched` (URL -> promise of a Response, each used once): files the worker started
// downloading before Pyodide asks for them (worker.js).
export async function withModule(indexURL, compiled, prefetched = new Map()) {
  const create = (await import(`${indexURL}pyodide.asm.mjs`)).default;
  const marker = Symbol("error marker");
  const wasmURL = `${indexURL}pyodide.asm.wasm`;
  let fail;
  const failure = new Promise((_, reject) => { fail = reject; });
  // Pyodide starts fetching the wasm as soon as it builds its settings; that copy would be
  // thrown away, so answer it with an empty body instead of downloading 9.6 MB again. Files
  // already on their way are answered with that download; if it failed, the start fails with its
  // error (Pyodide would log a fatal Python error and never settle).
  const realFetch = self.fetch;
  self.fetch = (input, init) => {
    const url = String(input);
    if (url === wasmURL) return Promise.resolve(new Response(null));
    const early = prefetched.get(url);
    prefetched.delete(url);
    if (!early) return realFetch(input, init);
    return early.catch((error) => {
      fail(error);
      return new Promise(() => {});
    });
  };
  const options = {
    createPyodideModule(settings) {
      self.fetch = realFetch;
      settings.instantiateWasm = (imports, success) => {
        imports.env.Jsv_GetError_import = () => marker;
        imports.env.JsvError_Check = (value) => value === marker;
        compiled
          .then((module) => module
            ? WebAssembly.instantiate(module, imports).then((instance) => success(instance, module))
            : WebAssembly.instantiateStreaming(realFetch(wasmURL), imports).then((made) => success(made.instance, made.module)))
          .catch(fail);
        return {};
      };
      return create(settings);
    },
  };
  return { options, failure };
}
