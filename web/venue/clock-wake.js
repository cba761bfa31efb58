// The screen kept on while the round runs (Screen Wake Lock), and said so under the clock.
import { word } from "../shared/page-data.js";
import { el } from "./clock-parts.js";

const wake = el.querySelector(".clock-wake");
let lock = null;
let wantLock = false;
export async function holdScreen(want) {
  wantLock = want;
  if (!want) {
    wake.hidden = true;
    const held = lock;
    lock = null;
    await held?.release();
    return;
  }
  if (lock) return;
  wake.hidden = false;
  if (!navigator.wakeLock) {
    wake.textContent = word("clock.wake.off");
    return;
  }
  try {
    const got = await navigator.wakeLock.request("screen");
    if (!wantLock) return got.release(); // paused while the request was pending
    lock = got;
    lock.addEventListener("release", () => { if (lock === got) lock = null; });
    wake.textContent = word("clock.wake.on");
  } catch {
    wake.textContent = word("clock.wake.off"); // refused (battery saver, hidden page)
  }
}

// Whether the clock asked for the screen to stay on (the lock may be released by the browser meanwhile).
export const holding = () => wantLock;
