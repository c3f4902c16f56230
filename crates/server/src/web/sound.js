// Optional sound, off by default: short tones made with WebAudio (no sound files), a
// higher one for X's stones than for O's, and a rising or falling run at the end.
const KEY = "crosscap-sound";
let context = null;

export function soundOn() {
  return localStorage.getItem(KEY) === "on";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
  // Made on the click that turns sound on: browsers start audio only after a gesture.
  if (on && !context && window.AudioContext) context = new AudioContext();
}

function note(frequency, start, length) {
  const osc = context.createOscillator();
  const gain = context.createGain();
  osc.type = "sine";
  osc.frequency.value = frequency;
  const t = context.currentTime + start;
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(0.2, t + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
  osc.connect(gain).connect(context.destination);
  osc.start(t);
  osc.stop(t + length + 0.02);
}

const TUNES = {
  X: [[660, 0, 0.12]],
  O: [[494, 0, 0.12]],
  won: [[523, 0, 0.15], [659, 0.12, 0.15], [784, 0.24, 0.3]],
  lost: [[392, 0, 0.15], [330, 0.12, 0.15], [262, 0.24, 0.3]],
};

/** Plays a tune by name ("X", "O", "won", "lost") when sound is on. */
export function play(name) {
  if (!soundOn() || !window.AudioContext) return;
  if (!context) context = new AudioContext();
  for (const [f, start, length] of TUNES[name] || []) note(f, start, length);
}
