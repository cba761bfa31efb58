// ESLint (npm, pinned in package.json) over the browser code and the Node tools: `make test` runs it
// before pytest, and any warning fails it.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["site/**", "node_modules/**", "build/**", "dist/**", ".cache/**", "bench-results/**"] },
  js.configs.recommended,
  {
    files: ["web/**/*.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["web/engine/*.js"],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
  },
  {
    files: ["web/site/search-worker.js"], // a classic worker around Material's, which defines lunr
    languageOptions: { sourceType: "script", globals: { ...globals.worker, lunr: "readonly" } },
  },
  {
    files: ["web/offline/sw.js", "web/offline/sw-*.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker, PRECACHE: "readonly" } },
  },
  {
    files: ["tools/*.mjs", "sitebuild/*.mjs"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: { ...globals.node } },
  },
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: { "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none" }] },
  },
];
