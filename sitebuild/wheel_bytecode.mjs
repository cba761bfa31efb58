// Writes our wheel with each Python module as its bytecode only (name.pyc, compiled by Pyodide's own
// Python, the engine's version, without line tables or docstrings but a class's), every other member as it is:
// compiling the sources was half of importing the calculators on a first start (sitebuild/bytecode.py).
//   node wheel_bytecode.mjs <pyodide dir/> <wheel> <out.whl>
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

// The shared helpers (without_docstrings, pyc) come first: sitebuild/pyc.py.
const HELPERS = readFileSync(new URL("pyc.py", import.meta.url), "utf8");
const COMPILE = `
import io, zipfile

# A class keeps its docstring: a dataclass without one gets one made by inspect.signature() at import
# (importing the calculators: 120 -> 109 ms of CPU with class docstrings kept, tools/engine_steps.mjs).
DOCUMENTED = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)

def compiled(name, source):
    return pyc(source, compile(without_docstrings(ast.parse(source, name), DOCUMENTED), name, "exec", dont_inherit=True))

buffer = io.BytesIO()
with zipfile.ZipFile("/tmp/in.whl") as source, zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as target:
    for info in source.infolist():
        data = source.read(info)
        name = info.filename
        if name.endswith(".py"):
            name, data = name + "c", compiled(name, data)
        copy = zipfile.ZipInfo(name, date_time=info.date_time)
        copy.external_attr = info.external_attr
        target.writestr(copy, data)
buffer.getvalue()
`;

async function main([indexURL, wheel, out]) {
  const { loadPyodide } = await import(pathToFileURL(`${indexURL}pyodide.mjs`).href);
  const pyodide = await loadPyodide({ indexURL, stdout: () => {}, stderr: (line) => console.error(line) });
  pyodide.FS.writeFile("/tmp/in.whl", readFileSync(wheel));
  writeFileSync(out, pyodide.runPython(HELPERS + COMPILE).toJs());
}

// An error is written in full, with status 1 (an uncaught error's report is cut short on a pipe).
main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`${error.message || error}\n`);
  process.exitCode = 1;
});
