// The page's words in the reader's language: English as the code writes it, or Japanese
// from ja.js, as the Euler Getter author's app comes in both. The English text is the
// key, so a text without a translation still shows (in English), and the browser test
// asks for the list of those (`crosscapUntranslated`) after going through every page.
import ja from "./ja.js";

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
    if (text in ja) words = ja[text];
    else untranslated.add(text);
  }
  return words.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
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
