/** A record as the service returns it; timestamps stay ISO 8601 strings, exactly as sent. */
export type WorkplanRecord<F extends string> = {
  readonly id: string;
  readonly createdAt: string;
  readonly updatedAt: string;
} & { readonly [K in F]: string };

export type WorkSchedule = WorkplanRecord<'value'>;
export type CostCenter = WorkplanRecord<'title'>;
