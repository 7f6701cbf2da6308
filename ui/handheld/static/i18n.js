// The page's own translations (en, de, fi), chosen from the browser's languages.

export const LANGUAGES = ["en", "de", "fi"];

export function pickLanguage(preferred) {
  for (const tag of preferred || []) {
    const base = String(tag).toLowerCase().split(/[-_]/)[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export async function loadCatalog(language) {
  const load = async (lang) => {
    const response = await fetch(`/static/i18n/${lang}.json`);
    if (!response.ok) throw new Error(`catalog ${lang}: ${response.status}`);
    return response.json();
  };
  const english = await load("en");
  const own = language === "en" ? {} : await load(language).catch(() => ({}));
  const catalog = { ...english, ...own };
  const plural = new Intl.PluralRules(language);
  return (key, params = {}) => {
    const text = pick(catalog[key] ?? key, params, plural);
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  };
}

// A message with plural forms is an object: {"count": "shots", "one": "{shots} shot", "other":
// "{shots} shots"}; the language's own rule (CLDR's, through Intl.PluralRules) picks the form
// for the number in params[count], "other" where the catalog has no such form.
export function pick(entry, params, plural) {
  if (typeof entry === "string") return entry;
  const n = Number(params[entry.count]);
  return entry[plural.select(n)] ?? entry.other;
}
