// What the engine's worker does after Pyodide's own start, step by step, in CPU milliseconds of this
// process (user + system: less moved by other processes on a shared machine than wall time), on a
// built site's own files, under Node: unpack the wheel, import calculators.bridge, the self-test,
// the memory copy, packing it without its zero pages, its SHA-256 (the steps of web/engine/worker.js).
//   node tools/engine_steps.mjs [site] [runs]      (medians of each step over the runs; default site, 5)
// Each run is a new Node process, cold as a first visit is (in one process, later runs reuse V8's
// compiled code). Not the browser's figures (no worker, no page): for comparing two builds' own steps.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const [site = "site", runs = "5", mode] = process.argv.slice(2);
const calc = new URL(`${site.replace(/\/$/, "")}/calc/`, pathToFileURL(`${process.cwd()}/`));
// The build's facts (sitebuild/contract.py): an ES module, imported as one (a data: URL, whatever
// Node makes of a .js file outside a "type": "module" package).
const facts = readFileSync(new URL("build.js", calc), "utf8");
const { ENGINE } = await import(`data:text/javascript,${encodeURIComponent(facts)}`);
const indexURL = new URL(ENGINE.pyodide, calc).pathname;
const wheel = readFileSync(new URL(ENGINE.wheel, calc));
const { loadPyodide } = await import(pathToFileURL(`${indexURL}pyodide.mjs`).href);
const cpu = () => { const used = process.cpuUsage(); return (used.user + used.system) / 1000; };
const PAGE = 4096;

function pack(memory) { // web/engine/worker.js pack(), without its Blob
  const words = new Uint32Array(memory.buffer, memory.byteOffset, memory.length >> 2);
  const kept = [];
  for (let i = 0; i < Math.ceil(memory.length / PAGE); i++) {
    let used = false;
    for (let w = i * (PAGE >> 2); w < Math.min((i + 1) * PAGE, memory.length) >> 2 && !used; w++) used = words[w] !== 0;
    if (used) kept.push(memory.subarray(i * PAGE, Math.min((i + 1) * PAGE, memory.length)));
  }
  const out = new Uint8Array(kept.reduce((sum, page) => sum + page.length, 0));
  kept.reduce((at, page) => { out.set(page, at); return at + page.length; }, 0);
  return out;
}

async function once() {
  const steps = {};
  let at = cpu();
  const step = (name) => { const now = cpu(); steps[name] = now - at; at = now; };
  const pyodide = await loadPyodide({ indexURL, _makeSnapshot: true, stdout: () => {}, stderr: (line) => console.error(line) });
  step("pyodide start");
  pyodide.FS.writeFile("/tmp/engine.whl", wheel);
  pyodide.runPython(`
import site, zipfile
with zipfile.ZipFile("/tmp/engine.whl") as wheel:
    wheel.extractall(site.getsitepackages()[0])
`);
  step("unpack wheel");
  const evaluateJson = pyodide.pyimport("calculators.bridge").evaluate_json;
  step("import bridge");
  for (const [id, inputs, lang, expected] of ENGINE.checks) {
    if (evaluateJson(id, JSON.stringify(inputs), lang) !== expected) throw new Error(`self-test ${id}/${lang}`);
  }
  step("self-test");
  const memory = pyodide.makeMemorySnapshot();
  step("memory copy");
  const packed = pack(memory);
  step("pack");
  await crypto.subtle.digest("SHA-256", packed);
  step("sha-256");
  return steps;
}

if (mode === "--once") {
  process.stdout.write(JSON.stringify(await once()));
  process.exit(0);
}
const all = [];
for (let i = 0; i < Number(runs); i++) {
  all.push(JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), site, "1", "--once"], { encoding: "utf8" })));
}
const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
for (const name of Object.keys(all[0])) {
  const values = all.map((steps) => steps[name]);
  console.log(`${name.padEnd(14)} ${median([...values]).toFixed(0).padStart(5)} ms  (runs ${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`);
}
