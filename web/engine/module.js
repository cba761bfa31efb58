// Fast engine start, worker side: Pyodide instantiates the wasm module compiled by the page, measured
// faster than the worker compiling it on a repeat visit (DESIGN.md, "Decisions").

// The worker: loadPyodide() options that instantiate the page's compiled module (a promise: Pyodide
// starts fetching and importing its other files meanwhile) and `failure`, a promise that rejects
// when the wasm cannot be instantiated - Pyodide itself would only log that and never settle.
// Without a module from the page (it failed to compile there), the worker compiles the wasm itself.
// Uses Pyodide's documented (experimental) createPyodideModule option; the two imports Pyodide
// adds are its own portable fallback (the one it uses where its tiny helper wasm cannot compile).
// `prefetched` (URL -> promise of a Response, each used once): files the worker started
// downloading before Pyodide asks for them (worker.js).
// `runtimeURL`: Pyodide's runtime script as the worker imported it (with a retry's query).
export async function withModule(indexURL, compiled, prefetched = new Map(), runtimeURL = `${indexURL}pyodide.asm.mjs`) {
  const create = (await import(runtimeURL)).default;
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
