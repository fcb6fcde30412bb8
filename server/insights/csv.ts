/**
 * CSV (RFC 4180) of an insights table. A cell a spreadsheet would read as a formula (a leading `=`, `+`,
 * `-`, `@`, tab or carriage return: search terms are typed by visitors) is prefixed with `'`, so it stays text.
 */
const FORMULA = /^[=+\-@\t\r]/;

export function csvCell(value: string): string {
  const safe = FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(columns: string[], rows: string[][]): string {
  return [columns, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
