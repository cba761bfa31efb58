// A short generated beep (WebAudio, no audio file) and a vibration where supported: how the
// round clock and the blitz action timer signal an end.

let audio = null;
// Browsers let a page make sound only after a tap: the first one on the page opens the audio.
function unlockAudio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!audio && Context) audio = new Context();
  if (audio?.state === "suspended") audio.resume();
}
addEventListener("pointerdown", unlockAudio);
addEventListener("keydown", unlockAudio);

// `beeps` short tones; `target` receives a "venue:signal" event (detail: `what`) for tests and tools.
export function signal(target, what, beeps = 3) {
  // Vibrating before any tap is refused by browsers with a console message: do not ask then.
  if (navigator.userActivation?.hasBeenActive) navigator.vibrate?.(beeps > 1 ? [300, 150, 300] : 200);
  if (audio) {
    const start = audio.currentTime;
    for (let i = 0; i < beeps; i += 1) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.value = 0.3;
      tone.connect(gain).connect(audio.destination);
      tone.start(start + i * 0.3);
      tone.stop(start + i * 0.3 + 0.18);
    }
  }
  target.dispatchEvent(new CustomEvent("venue:signal", { detail: what }));
}
