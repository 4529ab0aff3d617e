import { seedKinds, type KindDescription } from '@workplan/core';

/**
 * A kind of record no release serves, for the tests that show a kind is one description:
 * a department (área), its text in `name`, a feminine noun of one word, so the texts built
 * from it (articles, endings, plurals) are checked on words of its own.
 */
export const department: KindDescription<'name'> = Object.freeze({
  name: 'department',
  field: 'name',
  schema: 'Department',
  singular: 'department',
  plural: 'departments',
  one: 'área',
  many: 'áreas',
  gender: 'feminine',
  label: 'Nome',
  sample: 'Logística',
  slug: 'areas',
  messages: Object.freeze({
    create: 'Não foi possível criar a área.',
    update: 'Não foi possível atualizar a área.',
    find: 'Não foi possível retornar a área.',
    list: 'Não foi possível retornar as áreas.',
    delete: 'Não foi possível deletar a área.',
  }),
});

/** The seed's kinds and the department: what a service with a third kind serves. */
export const kindsWithDepartments = Object.freeze({ ...seedKinds, departments: department });
