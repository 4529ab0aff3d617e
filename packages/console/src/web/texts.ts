import { type ConsoleKind } from './kinds.js';

// Every word the console shows, in Brazilian Portuguese, in one place. The messages of a
// failed operation are not here: they are the service's own (the seed's exact words). A
// resource's nouns are its kind's, as the service describes it.

/** A resource's noun, the one fact every sentence about its records is built from. */
interface Noun {
  /** The tab and the heading: "Escalas de trabalho". */
  readonly title: string;
  /** One record, without its article: "escala de trabalho". */
  readonly one: string;
  /** Its grammatical gender, which articles and participles agree with. */
  readonly gender: 'feminine' | 'masculine';
  /** The label of its text field, and the column and CSV header: "Valor". */
  readonly column: string;
  /** A sample value, shown as the field's placeholder. */
  readonly sample: string;
  /** The exported file's name, before the date: "escalas-de-trabalho". */
  readonly fileName: string;
}

/** The counts of an import's report, by outcome. */
export type OutcomeCounts = Readonly<Record<'created' | 'exists' | 'invalid' | 'failed' | 'skipped', number>>;

/** What the console says of one kind of record, built from its noun. */
export interface ResourceWords extends Noun {
  /** One record, with its article, for sentences: "a escala de trabalho". */
  readonly theOne: string;
  /** The label of the field that makes a new one: "Nova escala de trabalho". */
  readonly newLabel: string;
  readonly created: (text: string) => string;
  readonly removed: (text: string) => string;
  /** On a clash: the record that holds the value, by its text as stored. */
  readonly heldBy: (text: string) => string;
  /** How many there are, or were found by a search: "1.234 centros de custo", "1 escala de trabalho encontrada". */
  readonly counted: (count: number, found: boolean) => string;
  /** What became of a row of an import: "Criada". */
  readonly outcomes: Readonly<Record<keyof OutcomeCounts, string>>;
  /** An import's report in a sentence: "47 criados, 0 já existiam, 3 inválidos." */
  readonly importSummary: (counts: OutcomeCounts) => string;
}

// Every count the console shows goes through here: Brazilian Portuguese whatever the browser's locale, "1.234".
const counting = new Intl.NumberFormat('pt-BR');
const shownCount = (count: number) => counting.format(count);

/** A text quoted as a Brazilian page quotes it. */
export const quoted = (text: string) => `“${text}”`;

/** `word` (a masculine singular participle or adjective, "criado") agreeing with `gender` and `count`: "criadas". */
function agreeing(word: string, gender: Noun['gender'], count = 1): string {
  const gendered = gender === 'feminine' ? word.replace(/o$/u, 'a') : word;
  return count === 1 ? gendered : `${gendered}s`;
}

/** A count and the words that agree with it: "1 registro lido", "2 registros lidos". */
const countOf = (count: number, singular: string, plural: string) => `${shownCount(count)} ${count === 1 ? singular : plural}`;

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The sentences about the records of `kind`, each agreeing with its nouns' gender and with the count. */
export function resourceWords(kind: ConsoleKind): ResourceWords {
  const { one, many, gender } = kind;
  const noun: Noun = { title: capitalized(many), one, gender, column: kind.label, sample: `ex.: ${kind.sample}`, fileName: many.replace(/\s+/gu, '-') };
  const said = (word: string) => (text: string) => `${capitalized(one)} ${quoted(text)} ${agreeing(word, gender)}.`;
  return {
    ...noun,
    theOne: `${gender === 'feminine' ? 'a' : 'o'} ${one}`,
    newLabel: `${capitalized(agreeing('novo', gender))} ${one}`,
    created: said('criado'),
    removed: said('excluído'),
    heldBy: (text) => `Já ${agreeing('cadastrado', gender)} como ${quoted(text)}.`,
    counted: (count, found) => {
      const total = countOf(count, one, many);
      return found ? `${total} ${agreeing('encontrado', gender, count)}` : total;
    },
    outcomes: {
      created: capitalized(agreeing('criado', gender)),
      exists: 'Já existe',
      invalid: capitalized(agreeing('inválido', gender)),
      failed: 'Falhou',
      skipped: `Não ${agreeing('enviado', gender)}`,
    },
    importSummary: ({ created, exists, invalid, failed, skipped }) =>
      [
        `${shownCount(created)} ${agreeing('criado', gender, created)}`,
        countOf(exists, 'já existia', 'já existiam'),
        `${shownCount(invalid)} ${agreeing('inválido', gender, invalid)}`,
        ...(failed > 0 ? [countOf(failed, 'falhou', 'falharam')] : []),
        ...(skipped > 0 ? [`${shownCount(skipped)} não ${agreeing('enviado', gender, skipped)}`] : []),
      ].join(', ') + '.',
  };
}

/** Who made a write, as the history shows it: the key's name, or a key without one by its fingerprint. */
export function keyNameOf(by: string): string {
  // The service names a key without a name by the first 8 hex characters of its SHA-256.
  return /^[0-9a-f]{8}$/u.test(by) ? `Chave sem nome (impressão digital ${by})` : by;
}

// Dates in Brazilian form whatever the browser's language ("02/12/2026 03:19", never
// "12/2/26, 6:19 AM"), in the time zone of the clerk's computer, which the browser knows.
const dateParts = new Intl.DateTimeFormat('pt-BR', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

function partsOf(date: Date): Readonly<Record<'day' | 'month' | 'year' | 'hour' | 'minute' | 'second', string>> {
  const parts = new Map(dateParts.formatToParts(date).map(({ type, value }) => [type, value]));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.get(type) ?? '';
  return { day: part('day'), month: part('month'), year: part('year'), hour: part('hour'), minute: part('minute'), second: part('second') };
}

/** A date of the service (ISO 8601, UTC) as the page shows it: "02/12/2026 03:19", in the computer's time zone. */
export function shownDate(iso: string): string {
  const { day, month, year, hour, minute } = partsOf(new Date(iso));
  return `${day}/${month}/${year} ${hour}:${minute}`;
}

/** A date of the service as Excel in Portuguese reads a date and time from a CSV: "02/12/2026 03:19:16", local time. */
export function sheetDate(iso: string): string {
  return `${shownDate(iso)}:${partsOf(new Date(iso)).second}`;
}

/** Today in the computer's time zone, as a file name sorts it: "2026-12-02". */
export function fileDate(): string {
  const { day, month, year } = partsOf(new Date());
  return `${year}-${month}-${day}`;
}

/** The computer's time zone, as the page names it: "Horário Padrão de Brasília" (an offset, "GMT+00:00", where it has no name). */
export const timeZone: string =
  new Intl.DateTimeFormat('pt-BR', { timeZoneName: 'longGeneric' }).formatToParts(new Date()).find((part) => part.type === 'timeZoneName')?.value ?? '';

export const words = {
  product: 'workplan',
  consoleTitle: 'Console de cadastros',
  resources: 'Cadastros',
  key: {
    heading: 'Entrar',
    intro: 'Digite a chave de API que a equipe de TI forneceu. Ela fica guardada só nesta aba e é esquecida ao sair ou ao fechar a aba.',
    label: 'Chave de API',
    submit: 'Entrar',
    checking: 'Verificando a chave…',
    refused: 'A chave não foi aceita.',
    retype: 'Confira e digite de novo.',
    notVisibleAscii: 'Uma chave tem só letras sem acento, números e sinais, sem espaços.',
  },
  signOut: 'Sair',

  create: 'Criar',
  creating: 'Criando…',
  edit: 'Editar',
  editing: (text: string) => `Editar ${quoted(text)}`,
  save: 'Salvar',
  saving: 'Salvando…',
  cancel: 'Cancelar',
  saved: (text: string) => `Alterações salvas: ${quoted(text)}.`,
  remove: 'Excluir',
  removing: (text: string) => `Excluir ${quoted(text)}`,
  removeTitle: 'Excluir registro',
  removeQuestion: (theOne: string, text: string) => `Excluir ${theOne} ${quoted(text)}? Esta ação não pode ser desfeita.`,
  actions: 'Ações',
  history: 'Histórico',
  historyOf: (text: string) => `Histórico de ${quoted(text)}`,
  historyLoading: 'Carregando o histórico…',
  historyEmpty: 'Nenhuma alteração registrada.',
  historyClose: 'Fechar',
  historyMore: 'Carregar mais alterações',
  historyActions: { create: 'Criação', update: 'Alteração', delete: 'Exclusão' },
  historyWho: 'Quem',
  historyWhen: 'Quando',
  historyBefore: 'Antes',
  historyAfter: 'Depois',
  historyNothing: '—',
  createdAt: 'Criado em',
  updatedAt: 'Atualizado em',
  /** Said beside dates, which a reader elsewhere (or a colleague's export) could take for another zone's. */
  inTimeZone: `Datas e horas no fuso deste computador: ${timeZone}.`,
  /** The CSV's columns of dates: local time, its zone named, and the exact instant. */
  sheetDates: [`Criado em (${timeZone})`, `Atualizado em (${timeZone})`, 'Criado em (ISO 8601, UTC)', 'Atualizado em (ISO 8601, UTC)'],
  id: 'ID',

  pageSize: 'Registros por página',
  loadMore: 'Carregar mais',
  loading: 'Carregando…',
  showing: (shown: number, more: boolean) =>
    `${countOf(shown, 'registro exibido', 'registros exibidos')}${more ? '; há mais.' : '; não há mais registros.'}`,
  empty: 'Nenhum registro ainda. Crie o primeiro acima ou importe uma planilha.',
  noneFound: 'Nenhum registro contém o texto buscado.',
  search: 'Buscar',
  searchHelp: 'Parte do texto; acentos e maiúsculas não fazem diferença.',

  listHeading: 'Registros cadastrados',
  opened: 'Registro aberto',
  addressMisread: 'O endereço da página não pôde ser lido (talvez tenha sido copiado pela metade); por isso a lista é mostrada.',
  kindsUnread: 'O console não pôde saber do serviço quais cadastros há. Recarregue a página; se continuar, avise a equipe de TI.',
  closeOpened: 'Fechar',
  openExisting: 'Abrir o registro que já usa este valor',

  stale: 'Outra pessoa alterou este registro depois que você o abriu. Nada foi salvo.',
  reload: 'Recarregar o registro',
  reloaded: (mine: string) => `Registro recarregado com a versão atual. O texto que você tinha digitado era ${quoted(mine)}.`,
  gone: 'Este registro não existe mais: talvez alguém o tenha excluído.',
  goneOne: (text: string) => `${quoted(text)}: este registro não existe mais; talvez alguém o tenha excluído.`,
  unavailable: (seconds: number) => `O serviço está indisponível no momento. Nova tentativa em ${seconds} s…`,
  stillUnavailable: 'O serviço continua indisponível. Tente de novo em instantes.',
  timeout: 'O serviço não respondeu a tempo. Tente de novo.',
  offline: 'Não foi possível falar com o serviço. Verifique a conexão e tente de novo.',
  tryAgain: 'Tentar de novo',
  liveStopped: 'Atualizações automáticas interrompidas: o serviço não responde, e o que outras pessoas mudarem não aparece aqui. A página tenta de novo sozinha.',
  liveResumed: 'Atualizações automáticas retomadas: as mudanças de outras pessoas voltam a aparecer.',
  unexpected: 'Algo inesperado aconteceu.',
  requestId: (id: string) => `Código da requisição: ${id}`,

  spreadsheets: 'Planilhas',
  exportCsv: 'Exportar CSV',
  exporting: (count: number) => `Exportando… ${countOf(count, 'registro lido', 'registros lidos')}.`,
  exported: (count: number, file: string) => `${countOf(count, 'registro exportado', 'registros exportados')} para ${file}.`,
  importFile: 'Importar CSV',
  importHelp:
    'Uma coluna de valores, um por linha. Se houver mais colunas (separadas por ; ou ,), usa-se a de cabeçalho “Valor” ou “Título”, ou então a primeira.',
  importStart: (count: number) => `Importar ${countOf(count, 'linha', 'linhas')}`,
  importNothing: 'O arquivo não tem nenhuma linha com valor.',
  importUnreadable:
    'Este arquivo não é um CSV de texto (nem UTF-8 nem Windows-1252); talvez seja uma pasta de trabalho do Excel (.xlsx). No Excel, use Arquivo › Salvar como, escolha o tipo “CSV UTF-8 (Delimitado por vírgulas)” e selecione o arquivo salvo.',
  readAs: {
    'utf-8': 'Arquivo lido como UTF-8.',
    'windows-1252': 'Arquivo lido como Windows-1252, a codificação que o Excel usa por padrão no Windows (não era UTF-8).',
  },
  headerSkipped: (header: string) => `A primeira linha é um cabeçalho (${quoted(header)}): não é importada.`,
  importProgress: (done: number, total: number) => `Importando: ${shownCount(done)} de ${shownCount(total)}`,
  importCancel: 'Cancelar importação',
  importElsewhere: (title: string) => `Importação em andamento em ${title}: outro arquivo só pode ser importado quando ela terminar.`,
  importCancelled: 'Importação cancelada: as linhas seguintes não foram enviadas.',
  importReport: 'Relatório da importação',
  line: 'Linha',
  outcome: 'Resultado',
  reason: 'Motivo',
  interrupted: 'A importação foi cancelada durante o envio desta linha; confira na lista se o registro foi criado.',
} as const;
