// The page's words in the reader's language: English as the code writes it, or Japanese
// from ja.js, as the Euler Getter author's app comes in both. The English text is the
// key, so a text without a translation still shows (in English), and the browser test
// asks for the list of those (`crosscapUntranslated`) after going through every page.
import ja, { messages } from "./ja.js";

const STORE = "crosscap-language";

/** The languages offered, by code, each named in itself. */
export const LANGUAGES = { en: "English", ja: "日本語" };

/** The reader's language: the one they chose, else Japanese where the browser asks for
 * it first, else English. */
export const language = (() => {
  const chosen = localStorage.getItem(STORE);
  if (chosen in LANGUAGES) return chosen;
  return /^ja\b/i.test((navigator.languages || [navigator.language])[0] || "") ? "ja" : "en";
})();

const untranslated = new Set();
window.crosscapUntranslated = () => [...untranslated];

/** `text` in the reader's language, its `{name}` placeholders filled from `params`. */
export function t(text, params = {}) {
  let words = text;
  if (language === "ja") {
    if (Object.hasOwn(ja, text)) words = ja[text];
    else untranslated.add(text);
  }
  return fill(words, params);
}

function fill(words, params) {
  return words.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The API's messages in ja.js with placeholders, as patterns that read a finished
 * message back: each placeholder any text. Those with the longest fixed start come first,
 * so that a message is read by its outer template (`bad board spec {spec}: {reason}`)
 * rather than by one of its reason's (`{value} is not a whole number`), then those with
 * the longest fixed text. */
const templates = Object.keys(messages)
  .filter((text) => /\{\w+\}/.test(text))
  .map((text) => {
    const names = [];
    const source = text.split(/(\{\w+\})/).map((part) => {
      const placeholder = /^\{(\w+)\}$/.exec(part);
      if (!placeholder) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(placeholder[1]);
      return "(.+?)";
    });
    const start = text.indexOf("{");
    const fixed = text.replace(/\{\w+\}/g, "").length;
    return { text, names, start, fixed, pattern: new RegExp(`^${source.join("")}$`, "s") };
  })
  .sort((a, b) => b.start - a.start || b.fixed - a.fixed);

/** A part filled into a message, translated where it is a word of the page or of the
 * messages (own keys only: a board named `constructor` is no word). */
function wordOf(part) {
  if (Object.hasOwn(messages, part)) return messages[part];
  return Object.hasOwn(ja, part) ? ja[part] : part;
}

/** A list the server writes in English ("none, 1, 3 or 5"), its words translated and
 * joined with the Japanese comma, as ja.js writes its own lists. */
function listOf(part) {
  return part
    .split(/, | or (?=[^ ]+$)/)
    .map(wordOf)
    .join("、");
}

/** A message of the API in the reader's language. The server writes English sentences
 * from templates (a board, a number or a cell filled in), so the template of ja.js's
 * `messages` that the message fits gives the translation, with the parts filled in kept
 * as they came (or translated where they are words of the page: a surface, a level), and
 * a `{reason}`, a message of its own, read the same way; the server needs no message
 * codes. A message that fits none shows in English, listed as untranslated. */
export function translateMessage(message) {
  if (language !== "ja") return message;
  if (Object.hasOwn(messages, message)) return messages[message];
  for (const { text, names, pattern } of templates) {
    const parts = pattern.exec(message);
    if (!parts) continue;
    const params = {};
    names.forEach((name, i) => {
      const part = parts[i + 1];
      params[name] = name === "reason" ? translateMessage(part) : name === "choices" ? listOf(part) : wordOf(part);
    });
    return fill(messages[text], params);
  }
  untranslated.add(message);
  return message;
}

/** A value the API takes (a computer level, an option's choice) as the page shows it: a
 * word translated, a number or a search's spec (`3`, `mcts:500`) as the API and the CLI
 * spell it. */
export function valueName(value) {
  return /^[a-z][a-z-]*$/.test(value) ? t(value) : value;
}

/** Keeps `code` as the reader's language and shows the page in it. */
export function chooseLanguage(code) {
  localStorage.setItem(STORE, code);
  location.reload();
}
