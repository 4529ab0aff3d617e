// The pieces every part of the document is written with.

/** A piece of the document: plain JSON, written out as openapi.json. */
export type Json = { readonly [key: string]: unknown };

/** A `$ref` to one of the document's components. */
export function ref(kind: 'schemas' | 'headers' | 'responses' | 'parameters', name: string): Json {
  return { $ref: `#/components/${kind}/${name}` };
}

/** An example record id, a real UUID v7, so the examples pass the schemas they illustrate. */
export const EXAMPLE_ID = '019a4b5c-6d7e-7f80-9a1b-2c3d4e5f6a7b';
