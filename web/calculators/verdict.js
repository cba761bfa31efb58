// "The verdict for these values": the one call the page asks, whatever answers it. Rendering
// (calc-render.js) never knows where a verdict came from. Two sources: the engine once it is ready,
// and before that the verdicts the build computed with the same Python for a calculator's small
// domain of values (sitebuild/answers.py), found by the exact values sent, never computed here.
// ANSWERS: the tables' file names, by calculator, language and the value of the field that picks
// the file (`by`), a build fact (sitebuild/answers.py, sitebuild/contract.py). Each name ends with
// the first hex digits of its content's SHA-256.
import { ANSWERS } from "../build.js";
import { askEngine, enginePending, engineReady } from "./calc-engine.js";
import { sha256Hex } from "../shared/digest.js";


const tables = new Map(); // file name -> promise of its verdicts (null: missing or damaged)

async function load(name) {
  try {
    const response = await fetch(new URL(`../answers/${name}`, import.meta.url));
    if (!response.ok) return null;
    const bytes = await response.arrayBuffer();
    if (!(await sha256Hex(bytes)).startsWith(name.split(".").at(-2))) { // not the build's bytes: never used
      console.warn(`${name}: the server's answer does not match the build`);
      return null;
    }
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null; // offline with no stored copy, or no Web Crypto: the engine answers
  }
}

// The build's key (sitebuild/answers.py pairs()): the values sent, empty ones left out, by name.
const pairsOf = (inputs) => Object.entries(inputs).filter(([, value]) => value !== "")
  .sort(([a], [b]) => (a < b ? -1 : 1));

// The verdict a table (sitebuild/answers.py compact()) holds for exactly these pairs, or null: its
// tree's node[name][value] leads to the next pair's node, and node[""] to the verdict's index.
function lookUp(table, inputs) {
  let node = table.keys;
  for (const step of pairsOf(inputs).flat()) {
    if (!Object.hasOwn(node, step)) return null;
    node = node[step];
  }
  return Object.hasOwn(node, "") ? table.verdicts[node[""]] : null;
}

// An own property only: a link's "__proto__" or "toString" is a value to refuse (the engine's error),
// never an object's inherited member taken for a file name.
const own = (object, key) => (object && Object.hasOwn(object, key) ? object[key] : undefined);

function fromTable(calc, inputs, lang) {
  const entry = own(ANSWERS, calc);
  const name = own(own(entry?.files, lang), entry?.by ? own(inputs, entry.by) ?? "" : "");
  if (typeof name !== "string") return null;
  if (!tables.has(name)) tables.set(name, load(name));
  return tables.get(name).then((table) => {
    if (!table) return null;
    const verdict = lookUp(table, inputs);
    if (verdict) return { type: "verdict", verdict, early: "table" };
    // Typed names change the wording only (never the result): the verdict with the default names, said
    // so (calc-engine.js) until the engine words it with them; not for a name the engine would refuse.
    const names = Object.entries(entry.names || {}).filter(([field]) => own(inputs, field));
    if (!names.length || names.some(([field, limit]) => inputs[field].length > limit)) return null;
    const plain = lookUp(table, Object.fromEntries(Object.entries(inputs).filter(([field]) => !own(entry.names, field))));
    return plain && { type: "verdict", verdict: plain, early: "names" };
  });
}

// A promise of {type: "verdict", verdict, early?} or {type: "internal", detail}, or of null when
// the build's tables do not hold these values (the engine, once ready, asks again for every
// calculator); null itself when nothing can answer yet. `early`: the verdict came before the engine
// ("table"), or is the table's for the same values without the typed names ("names").
export function verdictFor(calc, inputs, lang) {
  return engineReady() ? askEngine(calc, inputs, lang) : fromTable(calc, inputs, lang);
}

// How many verdicts of the engine are on their way (the address bar waits for them: calc-link.js).
export const verdictsPending = enginePending;
