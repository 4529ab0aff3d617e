import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { costCenters, scales } from '../test-support/seed-kinds.js';
import { keyNameOf, resourceWords, words } from './texts.js';

const seedWords = { scales: resourceWords(scales), costCenters: resourceWords(costCenters) };

describe('the console\'s Portuguese', () => {
  it('agrees each count of an import\'s summary with its noun, and with the resource\'s gender', () => {
    expect(seedWords.costCenters.importSummary({ created: 47, exists: 0, invalid: 3, failed: 0, skipped: 0 })).toBe('47 criados, 0 já existiam, 3 inválidos.');
    expect(seedWords.costCenters.importSummary({ created: 2, exists: 1, invalid: 1, failed: 1, skipped: 1 })).toBe(
      '2 criados, 1 já existia, 1 inválido, 1 falhou, 1 não enviado.',
    );
    expect(seedWords.scales.importSummary({ created: 1, exists: 2, invalid: 1, failed: 2, skipped: 1_234 })).toBe(
      '1 criada, 2 já existiam, 1 inválida, 2 falharam, 1.234 não enviadas.',
    );
  });

  it('says each row\'s outcome, and what became of a record, in the resource\'s gender', () => {
    expect(seedWords.scales.outcomes).toEqual({ created: 'Criada', exists: 'Já existe', invalid: 'Inválida', failed: 'Falhou', skipped: 'Não enviada' });
    expect(seedWords.costCenters.outcomes).toEqual({ created: 'Criado', exists: 'Já existe', invalid: 'Inválido', failed: 'Falhou', skipped: 'Não enviado' });
    expect(seedWords.scales.created('6x2')).toBe('Escala de trabalho “6x2” criada.');
    expect(seedWords.scales.removed('6x2')).toBe('Escala de trabalho “6x2” excluída.');
    expect(seedWords.costCenters.removed('RH')).toBe('Centro de custo “RH” excluído.');
    expect([seedWords.scales.heldBy('12x36'), seedWords.costCenters.heldBy('RH')]).toEqual(['Já cadastrada como “12x36”.', 'Já cadastrado como “RH”.']);
    expect([seedWords.scales.newLabel, seedWords.costCenters.newLabel]).toEqual(['Nova escala de trabalho', 'Novo centro de custo']);
    expect([seedWords.scales.theOne, seedWords.costCenters.theOne]).toEqual(['a escala de trabalho', 'o centro de custo']);
    expect([seedWords.scales.counted(1, true), seedWords.scales.counted(1_234, true), seedWords.costCenters.counted(0, false)]).toEqual([
      '1 escala de trabalho encontrada',
      '1.234 escalas de trabalho encontradas',
      '0 centros de custo',
    ]);
  });

  it('agrees the counts of an export with their noun', () => {
    expect([words.exporting(1), words.exporting(1_500)]).toEqual(['Exportando… 1 registro lido.', 'Exportando… 1.500 registros lidos.']);
    expect([words.exported(1, 'a.csv'), words.exported(20, 'a.csv')]).toEqual(['1 registro exportado para a.csv.', '20 registros exportados para a.csv.']);
  });

  it('says the key was refused on the sign-in screen, nothing about any resource', () => {
    expect(words.key.refused).toBe('A chave não foi aceita.');
  });

  it('names a key without a name, shown by its fingerprint, as a key without a name', () => {
    expect(keyNameOf('55e08b15')).toBe('Chave sem nome (impressão digital 55e08b15)');
    expect([keyNameOf('Ana'), keyNameOf('dev'), keyNameOf('Folha-2')]).toEqual(['Ana', 'dev', 'Folha-2']);
  });

  it('quotes with “ ”, as a Brazilian page does, never « »', () => {
    const here = new URL('./', import.meta.url);
    const sources = readdirSync(here).filter((name) => /\.tsx?$/u.test(name) && !name.endsWith('.test.ts'));
    expect(sources.length).toBeGreaterThan(10);
    expect(sources.filter((name) => /[«»]/u.test(readFileSync(new URL(name, here), 'utf8')))).toEqual([]);
    expect(words.editing('12x36')).toBe('Editar “12x36”');
  });
});
