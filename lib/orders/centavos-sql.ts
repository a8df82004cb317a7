/**
 * SQL for a mirrored order's amount `column` in centavos of reais, rounded half away from zero:
 * integer arithmetic at the usual normalizer of 100. For rows already in BRL (the caller filters).
 */
export const centavosSql = (column: string) =>
  `CASE WHEN "normalizer" = 100 THEN ${column}::bigint ELSE round(${column}::numeric * 100 / "normalizer")::bigint END`;
