// Writes our wheel with each Python module as its bytecode only (name.pyc, compiled by Pyodide's own
// Python, the engine's version, without line tables or docstrings but a class's), every other member as it is:
// compiling the sources was half of importing the calculators on a first start (sitebuild/bytecode.py).
//   node wheel_bytecode.mjs <pyodide dir/> <wheel> <out.whl>
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const COMPILE = `
import ast, importlib.util, io, marshal, zipfile

# A class keeps its docstring: a dataclass without one gets one made by inspect.signature() at import
# (importing the calculators: 120 -> 109 ms of CPU with class docstrings kept, tools/engine_steps.mjs).
DOCUMENTED = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)

def without_docstrings(tree):
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, DOCUMENTED) and body and isinstance(body[0], ast.Expr) \\
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
    return tree

def pyc(name, source):
    """An unchecked hash-based .pyc (PEP 552): sourceless, so the import loads it as it is."""
    tree = without_docstrings(ast.parse(source, name))
    code = compile(tree, name, "exec", dont_inherit=True)
    flags = (1).to_bytes(4, "little")
    return importlib.util.MAGIC_NUMBER + flags + importlib.util.source_hash(source) + marshal.dumps(without_line_tables(code))

def without_line_tables(code):
    consts = tuple(without_line_tables(c) if isinstance(c, type(code)) else c for c in code.co_consts)
    return code.replace(co_linetable=b"", co_consts=consts)

buffer = io.BytesIO()
with zipfile.ZipFile("/tmp/in.whl") as source, zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as target:
    for info in source.infolist():
        data = source.read(info)
        name = info.filename
        if name.endswith(".py"):
            name, data = name + "c", pyc(name, data)
        copy = zipfile.ZipInfo(name, date_time=info.date_time)
        copy.external_attr = info.external_attr
        target.writestr(copy, data)
buffer.getvalue()
`;

async function main([indexURL, wheel, out]) {
  const { loadPyodide } = await import(pathToFileURL(`${indexURL}pyodide.mjs`).href);
  const pyodide = await loadPyodide({ indexURL, stdout: () => {}, stderr: (line) => console.error(line) });
  pyodide.FS.writeFile("/tmp/in.whl", readFileSync(wheel));
  writeFileSync(out, pyodide.runPython(COMPILE).toJs());
}

// An error is written in full, with status 1 (an uncaught error's report is cut short on a pipe).
main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`${error.message || error}\n`);
  process.exitCode = 1;
});
