import { type ConsoleKind } from '../web/kinds.js';

// Test-only: the seed's two kinds as the service's kinds.json gives them, written out here
// so a test of the console's words reads them from the seed, not from the code under test.

export const scales: ConsoleKind = {
  singular: 'scale',
  plural: 'scales',
  field: 'value',
  one: 'escala de trabalho',
  many: 'escalas de trabalho',
  gender: 'feminine',
  label: 'Valor',
  sample: '12x36',
  slug: 'escalas',
  maxPageSize: 1000,
};

export const costCenters: ConsoleKind = {
  singular: 'costCenter',
  plural: 'costCenters',
  field: 'title',
  one: 'centro de custo',
  many: 'centros de custo',
  gender: 'masculine',
  label: 'Título',
  sample: 'Financeiro',
  slug: 'centros-de-custo',
  maxPageSize: 1000,
};
