// Every word the console shows, in Brazilian Portuguese, in one place. The messages of a
// failed operation are not here: they are the service's own (the seed's exact words).

/** What the console says of one kind of record. */
export interface ResourceWords {
  /** The tab and the heading: "Escalas de trabalho". */
  readonly title: string;
  /** One record, with its article, for sentences: "a escala de trabalho". */
  readonly theOne: string;
  /** The label of its text field, and the column and CSV header: "Valor". */
  readonly column: string;
  /** The label of the field that makes a new one: "Nova escala de trabalho". */
  readonly newLabel: string;
  /** A sample value, shown as the field's placeholder. */
  readonly sample: string;
  /** The exported file's name, before the date: "escalas-de-trabalho". */
  readonly fileName: string;
  readonly created: (text: string) => string;
  /** How many there are, or were found by a search: "1.234 centros de custo", "1 escala de trabalho encontrada". */
  readonly counted: (count: number, found: boolean) => string;
}

// Every count the console shows goes through here: Brazilian Portuguese whatever the browser's locale, "1.234".
const counting = new Intl.NumberFormat('pt-BR');
const shownCount = (count: number) => counting.format(count);

export const words = {
  product: 'workplan',
  consoleTitle: 'Console de cadastros',
  resources: 'Cadastros',
  scales: {
    title: 'Escalas de trabalho',
    theOne: 'a escala de trabalho',
    column: 'Valor',
    newLabel: 'Nova escala de trabalho',
    sample: 'ex.: 12x36',
    fileName: 'escalas-de-trabalho',
    created: (text) => `Escala de trabalho «${text}» criada.`,
    counted: (count, found) =>
      count === 1 ? `1 escala de trabalho${found ? ' encontrada' : ''}` : `${shownCount(count)} escalas de trabalho${found ? ' encontradas' : ''}`,
  } satisfies ResourceWords,
  costCenters: {
    title: 'Centros de custo',
    theOne: 'o centro de custo',
    column: 'Título',
    newLabel: 'Novo centro de custo',
    sample: 'ex.: Financeiro',
    fileName: 'centros-de-custo',
    created: (text) => `Centro de custo «${text}» criado.`,
    counted: (count, found) =>
      count === 1 ? `1 centro de custo${found ? ' encontrado' : ''}` : `${shownCount(count)} centros de custo${found ? ' encontrados' : ''}`,
  } satisfies ResourceWords,

  key: {
    heading: 'Entrar',
    intro: 'Digite a chave de API que a equipe de TI forneceu. Ela fica guardada só nesta aba e é esquecida ao sair ou ao fechar a aba.',
    label: 'Chave de API',
    submit: 'Entrar',
    checking: 'Verificando a chave…',
    wrong: 'A chave não foi aceita. Confira e digite de novo.',
    notVisibleAscii: 'Uma chave tem só letras sem acento, números e sinais, sem espaços.',
  },
  signOut: 'Sair',

  create: 'Criar',
  creating: 'Criando…',
  edit: 'Editar',
  editing: (text: string) => `Editar «${text}»`,
  save: 'Salvar',
  saving: 'Salvando…',
  cancel: 'Cancelar',
  saved: (text: string) => `Alterações salvas: «${text}».`,
  remove: 'Excluir',
  removeTitle: 'Excluir registro',
  removeQuestion: (theOne: string, text: string) => `Excluir ${theOne} «${text}»? Esta ação não pode ser desfeita.`,
  removed: (text: string) => `«${text}» foi excluído.`,
  actions: 'Ações',
  history: 'Histórico',
  historyOf: (text: string) => `Histórico de «${text}»`,
  historyLoading: 'Carregando o histórico…',
  historyEmpty: 'Nenhuma alteração registrada.',
  historyClose: 'Fechar',
  historyActions: { create: 'Criação', update: 'Alteração', delete: 'Exclusão' },
  historyWho: 'Quem',
  historyWhen: 'Quando',
  historyBefore: 'Antes',
  historyAfter: 'Depois',
  historyNothing: '—',
  createdAt: 'Criado em',
  updatedAt: 'Atualizado em',
  id: 'ID',

  pageSize: 'Registros por página',
  loadMore: 'Carregar mais',
  loading: 'Carregando…',
  showing: (shown: number, more: boolean) =>
    `${shown === 1 ? '1 registro exibido' : `${shownCount(shown)} registros exibidos`}${more ? '; há mais.' : '; não há mais registros.'}`,
  empty: 'Nenhum registro ainda. Crie o primeiro acima ou importe uma planilha.',
  noneFound: 'Nenhum registro contém o texto buscado.',
  search: 'Buscar',
  searchHelp: 'Parte do texto; acentos e maiúsculas não fazem diferença.',

  listHeading: 'Registros cadastrados',
  opened: 'Registro aberto',
  addressMisread: 'O endereço da página não pôde ser lido (talvez tenha sido copiado pela metade); por isso a lista é mostrada.',
  closeOpened: 'Fechar',
  openExisting: 'Abrir o registro que já usa este valor',
  heldBy: (text: string) => `Já cadastrado como «${text}».`,

  stale: 'Outra pessoa alterou este registro depois que você o abriu. Nada foi salvo.',
  reload: 'Recarregar o registro',
  reloaded: (mine: string) => `Registro recarregado com a versão atual. O texto que você tinha digitado era «${mine}».`,
  gone: 'Este registro não existe mais: talvez alguém o tenha excluído.',
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
  exporting: (count: number) => `Exportando… ${shownCount(count)} registros lidos.`,
  exported: (count: number, file: string) => `${shownCount(count)} registros exportados para ${file}.`,
  importFile: 'Importar CSV',
  importHelp:
    'Uma coluna de valores, um por linha. Se houver mais colunas (separadas por ; ou ,), usa-se a de cabeçalho «Valor» ou «Título», ou então a primeira.',
  importStart: (count: number) => (count === 1 ? 'Importar 1 linha' : `Importar ${shownCount(count)} linhas`),
  importNothing: 'O arquivo não tem nenhuma linha com valor.',
  importUnreadable:
    'Este arquivo não é um CSV de texto (nem UTF-8 nem Windows-1252); talvez seja uma pasta de trabalho do Excel (.xlsx). No Excel, use Arquivo › Salvar como, escolha o tipo «CSV UTF-8 (Delimitado por vírgulas)» e selecione o arquivo salvo.',
  readAs: {
    'utf-8': 'Arquivo lido como UTF-8.',
    'windows-1252': 'Arquivo lido como Windows-1252, a codificação que o Excel usa por padrão no Windows (não era UTF-8).',
  },
  headerSkipped: (header: string) => `A primeira linha é um cabeçalho («${header}»): não é importada.`,
  importProgress: (done: number, total: number) => `Importando: ${shownCount(done)} de ${shownCount(total)}`,
  importCancel: 'Cancelar importação',
  importElsewhere: (title: string) => `Importação em andamento em ${title}: outro arquivo só pode ser importado quando ela terminar.`,
  importCancelled: 'Importação cancelada: as linhas seguintes não foram enviadas.',
  importReport: 'Relatório da importação',
  importSummary: ({ created, exists, invalid, failed, skipped }: Readonly<Record<'created' | 'exists' | 'invalid' | 'failed' | 'skipped', number>>) =>
    [`${shownCount(created)} criados`, `${shownCount(exists)} já existiam`, `${shownCount(invalid)} inválidos`, ...(failed > 0 ? [`${shownCount(failed)} falharam`] : []), ...(skipped > 0 ? [`${shownCount(skipped)} não enviados`] : [])].join(', ') + '.',
  line: 'Linha',
  outcome: 'Resultado',
  reason: 'Motivo',
  outcomes: {
    created: 'Criado',
    exists: 'Já existe',
    invalid: 'Inválido',
    failed: 'Falhou',
    skipped: 'Não enviado',
  },
  interrupted: 'A importação foi cancelada durante o envio desta linha; confira na lista se o registro foi criado.',
} as const;

/** A date of the service (ISO 8601, UTC) in the browser's own locale and time zone. */
export function shownDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });
