import { type Gender } from '@workplan/core';

/** A noun as the API document names a resource: *a escala de trabalho*, *o centro de custo*. */
export interface Noun {
  readonly one: string;
  readonly many: string;
  readonly gender: Gender;
}

/** The phrases of a sentence about a noun, each with the article or ending its gender asks for. */
export interface NounPhrases {
  /** "a escala de trabalho", "o centro de custo". */
  readonly theOne: string;
  /** "uma escala de trabalho", "um centro de custo". */
  readonly aOne: string;
  /** "as escalas de trabalho", "os centros de custo". */
  readonly theMany: string;
  /** The form of a word that agrees with the noun: `agree('criada', 'criado')`. */
  readonly agree: (feminine: string, masculine: string) => string;
}

const ARTICLES = {
  feminine: { the: 'a', a: 'uma', theMany: 'as' },
  masculine: { the: 'o', a: 'um', theMany: 'os' },
} as const satisfies Record<Gender, { the: string; a: string; theMany: string }>;

/** The phrases that speak of `noun`, agreeing with its gender. */
export function phrasesOf(noun: Noun): NounPhrases {
  const articles = ARTICLES[noun.gender];
  return {
    theOne: `${articles.the} ${noun.one}`,
    aOne: `${articles.a} ${noun.one}`,
    theMany: `${articles.theMany} ${noun.many}`,
    agree: (feminine, masculine) => (noun.gender === 'feminine' ? feminine : masculine),
  };
}

/** The sentence with its first letter in capitals. */
export function capitalized(sentence: string): string {
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}
