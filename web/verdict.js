// "The verdict for these values": the one call the page asks, whatever answers it. Rendering
// (calc-render.js) never knows where a verdict came from.
import { askEngine, enginePending, engineReady } from "./calc-engine.js";

// A promise of {type: "verdict", verdict} or {type: "internal", detail}; null when nothing can
// answer yet (the engine is still starting: it asks again for every calculator once ready).
export function verdictFor(calc, inputs, lang) {
  return engineReady() ? askEngine(calc, inputs, lang) : null;
}

// How many verdicts are on their way (the address bar waits for them: calc-link.js).
export const verdictsPending = enginePending;
