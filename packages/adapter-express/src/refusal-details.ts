import { type ParameterRefusal } from '@workplan/core';

/**
 * A refused parameter of a request, and what it takes: the core's refusals, and the HTTP
 * adapter's own of a query string (a parameter given twice or as an array or object, or a
 * value that is not percent-encoded UTF-8).
 */
export type QueryRefusal = ParameterRefusal | { readonly parameter: string; readonly rule: { readonly kind: 'once' | 'percentEncoded' } };

/** The `detail` of a refusal, in the Portuguese of the other details: the parameter, and what would be right. */
export function detailOf({ parameter, rule }: QueryRefusal): string {
  const subject = `O parâmetro ${parameter}`;
  switch (rule.kind) {
    case 'wholeNumber':
      return `${subject} deve ser um número inteiro de ${rule.min} a ${rule.max}.`;
    case 'seconds':
      return `${subject} deve ser um número inteiro de segundos, de ${rule.min} a ${rule.max}.`;
    case 'oneOf':
      return rule.values.length === 1 ? `${subject} só aceita ${rule.values.join('')}.` : `${subject} deve ser um destes: ${rule.values.join(', ')}.`;
    case 'search':
      return `${subject} deve ser um texto de no máximo ${rule.maxLength} caracteres, em Unicode bem formado.`;
    case 'listCursor':
      return `${subject} deve ser o cursor do Link rel="next" de uma página desta lista, com a mesma ordem e busca.`;
    case 'changeId':
      return `${subject} deve ser o id de uma alteração, ou 0 para o começo.`;
    case 'boolean':
      return `${subject} deve ser true ou false.`;
    case 'once':
      return `${subject} deve vir uma só vez, como um texto.`;
    case 'percentEncoded':
      return `${subject} deve ser UTF-8 em percent-encoding válido.`;
  }
}
