// Runs the pages' search worker (calc/site/search-worker.js around Material's, with the lunr-languages files
// it loads) under Node against a built index, and prints each query's results in order, as listed.
// Usage: node tools/search_query.mjs <site> <lang folder: "" | fr/ | it/> <query>...  -> JSON lines
// [query, [location, ...]] (sections, in the order the results show them).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import vm from "node:vm";

const [site, folder, ...queries] = process.argv.slice(2);
const folder_ = join(site, "calc", "site"); // importScripts resolves from the worker's own folder
let handler = null;
let reply = null;
const context = {
  console,
  URL,
  addEventListener: (type, fn) => { if (type === "message") handler = fn; },
  postMessage: (message) => reply(message),
  importScripts: (...paths) => { for (const path of paths) vm.runInContext(readFileSync(join(folder_, path), "utf8"), context); },
};
// The worker's address as a page starts it (its __config names it, with Material's worker file).
const config = readFileSync(join(site, folder, "index.html"), "utf8").match(/"search": "([^"]+)"/);
context.location = { href: new URL(config[1], "http://localhost/x/").href };
context.self = context;
vm.createContext(context);
vm.runInContext(readFileSync(join(folder_, "search-worker.js"), "utf8"), context);
const ask = (data) => new Promise((resolve) => { reply = resolve; handler({ data }); });
const index = JSON.parse(readFileSync(join(site, folder, "search/search_index.json"), "utf8"));
await ask({ type: 0, data: { ...index, options: { suggest: false } } });
for (const query of queries) {
  const { data } = await ask({ type: 2, data: query });
  const order = data.items.flatMap((group) => group.map((item) => item.location));
  console.log(JSON.stringify([query, order]));
}
