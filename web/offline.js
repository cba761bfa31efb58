// Offline use, on every page: registers the service worker (site root, whole-site scope),
// asks it to keep the engine for offline use once this page has loaded, and shows a small
// "new version — reload" prompt when a new release is installed and waiting.
// Words come from the build (data-msg-* on this script's tag, in the page's language).
// State for tests and assistive tech: <html data-offline="ready"> once everything is stored and
// matches the build, "incomplete" once a try to store it fell short.
const script = document.getElementById("offline-script");
const root = new URL("../", import.meta.url);

function prompt(waiting) {
  if (document.querySelector(".offline-update")) return;
  const box = document.createElement("div");
  box.className = "offline-update";
  box.setAttribute("role", "status");
  const text = document.createElement("span");
  text.textContent = script.dataset.msgUpdate;
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = script.dataset.msgReload;
  button.addEventListener("click", () => {
    button.disabled = true;
    // Reload once the new release controls this page: every file then comes from it.
    navigator.serviceWorker.addEventListener("controllerchange", () => location.reload());
    waiting.postMessage({ type: "skip-waiting" });
  });
  box.append(text, " ", button);
  document.body.append(box);
}

function watchForUpdates(registration) {
  if (registration.waiting && navigator.serviceWorker.controller) prompt(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    installing.addEventListener("statechange", () => {
      // With no controller this is the first install, not an update: nothing to announce.
      if (installing.state === "installed" && navigator.serviceWorker.controller) prompt(installing);
    });
  });
}

// The page's offline state, and a line in the footer that says so only while it is true: a judge
// can tell the phone is safe to take into a hall with no signal.
function setOffline(state) {
  document.documentElement.dataset.offline = state;
  let line = document.querySelector(".offline-ready");
  if (!line) {
    line = Object.assign(document.createElement("p"), { className: "offline-ready", textContent: script.dataset.msgReady });
    line.setAttribute("role", "status");
    (document.querySelector(".md-footer-meta__inner") || document.body).append(line);
  }
  line.hidden = state !== "ready";
}

async function start() {
  navigator.serviceWorker.addEventListener("message", ({ data }) => {
    // "ready" only when every file is stored and matches the build; "incomplete" when a fill
    // failed or a stored file was found damaged (sw.js).
    if (data && data.type === "offline-ready") setOffline("ready");
    if (data && data.type === "offline-incomplete") setOffline("incomplete");
  });
  const registration = await navigator.serviceWorker.register(new URL("sw.js", root), { scope: root.href });
  watchForUpdates(registration);
  const ready = await navigator.serviceWorker.ready;
  // The engine is fetched by the service worker, in the background, only after this page has
  // loaded: a page without a calculator loads no engine byte itself.
  ready.active.postMessage({ type: "cache-engine" });
  // An engine that starts after a failed start (a retry, once the host answers right again): the
  // copy the failure left incomplete is completed now, not at the next visit.
  document.addEventListener("calc:engine", () => {
    if (document.documentElement.dataset.offline !== "ready") ready.active.postMessage({ type: "cache-engine" });
  });
}

// After the page has loaded and, on a page with calculators, once their engine has started (or
// failed): installing fetches the whole site shell, which would compete with the engine's start.
const loaded = new Promise((resolve) => {
  if (document.readyState === "complete") resolve();
  else addEventListener("load", resolve, { once: true });
});
const engineSettled = new Promise((resolve) => {
  if (!document.querySelector(".calc[data-calc]")) resolve();
  else document.addEventListener("calc:engine", resolve, { once: true });
});

if ("serviceWorker" in navigator && script) {
  Promise.all([loaded, engineSettled])
    .then(start)
    .catch((error) => console.warn("offline use unavailable:", error));
}
