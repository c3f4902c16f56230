// Optional sound, off by default: short tones made with WebAudio (no sound files), a
// higher one for X's stones than for O's, and a rising or falling run at the end; and
// optional music, off by default too: a quiet loop made the same way that follows the
// game it is played over.
const KEY = "crosscap-sound";
const MUSIC_KEY = "crosscap-music";
let context = null;

/** The audio context, made on first use: browsers start audio only after a gesture, so
 * the first use is a click (turning sound or music on). */
function audio() {
  if (!context && window.AudioContext) context = new AudioContext();
  return context;
}

export function soundOn() {
  return localStorage.getItem(KEY) === "on";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
  if (on) audio();
}

function note(frequency, start, length, { volume = 0.2, type = "sine", attack = 0.01 } = {}) {
  const osc = context.createOscillator();
  const gain = context.createGain();
  osc.type = type;
  osc.frequency.value = frequency;
  const t = context.currentTime + start;
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(volume, t + attack);
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
  if (!soundOn() || !audio()) return;
  for (const [f, start, length] of TUNES[name] || []) note(f, start, length);
}

// The music: one bar every BAR_MS, a low root under a rising arpeggio, from a round of
// four chords that moves on with each pair of moves, a fourth lower while O is to move.
// It is several times quieter than the move sounds and rests once the game is over.
const BAR_MS = 2400;
const CHORDS = [
  [261.63, 329.63, 392.0], // C
  [220.0, 261.63, 329.63], // A minor
  [174.61, 220.0, 261.63], // F
  [196.0, 246.94, 293.66], // G
];
let music = null; // { game, current, timer } while a game page has music

export function musicOn() {
  return localStorage.getItem(MUSIC_KEY) === "on";
}

/** Turns the music on or off (remembered on this device), for the game page that asked
 * for it last. */
export function setMusic(on) {
  localStorage.setItem(MUSIC_KEY, on ? "on" : "off");
  if (on && audio() && context.state === "suspended") context.resume();
  if (music) schedule();
}

/** Plays music over a game page while the music is on: `game()` says where the game
 * stands ({ toMove, ply, over }) at each bar; `current()` turns false once the reader has
 * left the page, and the music stops. */
export function followGame(game, current) {
  stopMusic();
  music = { game, current, timer: null };
  // Music left on at the last visit starts at the reader's first click or key on the page.
  if (musicOn() && !context) {
    const start = () => {
      if (music && music.current() && audio()) schedule();
    };
    document.addEventListener("pointerdown", start, { once: true });
    document.addEventListener("keydown", start, { once: true });
  }
  schedule();
}

function schedule() {
  const wanted = musicOn() && context !== null;
  if (wanted && !music.timer) {
    music.timer = setInterval(bar, BAR_MS);
    bar();
  } else if (!wanted && music.timer) {
    stopMusic();
  }
}

function stopMusic() {
  if (music && music.timer) clearInterval(music.timer);
  if (music) music.timer = null;
  delete document.documentElement.dataset.music;
}

function bar() {
  if (!music.current()) {
    stopMusic();
    music = null;
    return;
  }
  const { toMove, ply, over } = music.game();
  // A hidden tab and a finished game stay quiet (the result has its own sound).
  if (document.hidden || over) {
    document.documentElement.dataset.music = "resting";
    return;
  }
  document.documentElement.dataset.music = "playing";
  const shift = toMove === "O" ? 0.75 : 1;
  const chord = CHORDS[Math.floor(ply / 2) % CHORDS.length].map((f) => f * shift);
  const beat = BAR_MS / 4000;
  const soft = { attack: 0.08 };
  note(chord[0] / 2, 0, 4 * beat, { ...soft, volume: 0.03 });
  chord.forEach((f, i) => note(f, i * beat, 1.5 * beat, { ...soft, volume: 0.02, type: "triangle" }));
  note(chord[1] * 2, 3 * beat, beat, { ...soft, volume: 0.01 });
}
