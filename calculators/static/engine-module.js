// Fast engine start: the page compiles Pyodide's wasm and hands the compiled Module to the worker.
//
// Why (measured with tools/bench.py and a bare worker boot, Chromium 156, 2 cores): compiling
// the 9.6 MB wasm is quick either way (~0.1 s with Liftoff); the boot is slow when the code
// then *runs* unoptimized. On the page's thread, WebAssembly.compileStreaming() gets
// Chromium's compiled-wasm cache (optimized code from the last visit, also for responses
// from the service worker's Cache Storage); in a dedicated worker it does not, so a worker
// booting Pyodide on its own was no faster on a repeat visit (~1.6-2.0 s against ~1.15 s
// for the warm main-thread floor). A Module compiled on the page and posted to the worker
// (Modules are structured-cloneable) brought the repeat worker boot to ~1.2 s.
//
// Page side: compileEngine(). Worker side: withModule() -> extra loadPyodide() options.

// The page: the compiled engine, or null when anything fails (the worker then finds and
// reports the failure itself, with its checks of every engine file).
export async function compileEngine(base) {
  try {
    const response = await fetch(new URL("engine.json", base));
    const engine = await response.json();
    return await WebAssembly.compileStreaming(fetch(new URL(`${engine.pyodide}pyodide.asm.wasm`, base)));
  } catch {
    return null;
  }
}

// The worker: loadPyodide() options that instantiate `module` instead of fetching and
// compiling the wasm again. Uses Pyodide's documented (experimental) createPyodideModule
// option; the two imports Pyodide adds are its own portable fallback (the one it uses where
// its tiny helper wasm cannot compile).
export async function withModule(indexURL, module) {
  if (!module) return {};
  const create = (await import(`${indexURL}pyodide.asm.mjs`)).default;
  const marker = Symbol("error marker");
  const wasmURL = `${indexURL}pyodide.asm.wasm`;
  // Pyodide starts fetching the wasm as soon as it builds its settings; that copy would be
  // thrown away, so answer it with an empty body instead of downloading 9.6 MB again.
  const realFetch = self.fetch;
  self.fetch = (input, init) => (String(input) === wasmURL ? Promise.resolve(new Response(null)) : realFetch(input, init));
  return {
    createPyodideModule(settings) {
      self.fetch = realFetch;
      settings.instantiateWasm = (imports, success) => {
        imports.env.Jsv_GetError_import = () => marker;
        imports.env.JsvError_Check = (value) => value === marker;
        WebAssembly.instantiate(module, imports).then(
          (instance) => success(instance, module),
          (error) => setTimeout(() => { throw error; }), // surfaces as the worker's "error" event
        );
        return {};
      };
      return create(settings);
    },
  };
}
