// use-grammar.ts: the grammar of one file, loaded on first need; re-renders once it is there.
// Until then (or when tether has none for the file) the text shows plain.
import { useEffect, useState } from 'react';
import { languageOf, loadLanguage } from './highlight.ts';

/** The file's language once its grammar is registered, else null. */
export function useGrammar(path: string): string | null {
  const language = languageOf(path);
  const [loaded, setLoaded] = useState<string | null>(null);
  useEffect(() => {
    if (!language) return;
    let live = true;
    void loadLanguage(language).then((ok) => {
      if (live && ok) setLoaded(language);
    });
    return () => {
      live = false;
    };
  }, [language]);
  return loaded === language ? language : null;
}
