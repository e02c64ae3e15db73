import { formatAmount, pad, type ExportLayout, type ExportRow } from './exports.js';

/**
 * Four export layouts as issuers write them, each column with the target a correct guess gives
 * it. Amount exponents: EUR and USD 2, JPY 0, KWD 3.
 */

export const exponents: Readonly<Record<string, number>> = { EUR: 2, USD: 2, JPY: 0, KWD: 3 };
const exponentOf = (row: ExportRow) => exponents[row.item.currency] ?? 2;
const yesNo = (value: boolean, yes: string, no: string) => (value ? yes : no);
const spelledNetwork: Readonly<Record<string, string>> = { VISA: 'Visa', MC: 'Mastercard', AMEX: 'American Express' };

/** German: `;`, decimal comma with `.` grouping, dd.MM.yyyy, J/N, UTF-8 without a BOM, CRLF. */
export const germanLayout: ExportLayout = {
  delimiter: ';',
  encoding: 'utf-8',
  bom: false,
  lineEnding: '\r\n',
  columns: [
    { header: 'Fallnummer', cell: ({ dispute }) => dispute.ref, expected: 'claim.key' },
    { header: 'Grund', cell: ({ dispute }) => dispute.reasonCode, expected: 'shared.dispute.reason' },
    { header: 'Kartenmarke', cell: ({ dispute }) => dispute.network, expected: 'shared.card.network' },
    { header: 'Kartennummer (letzte 4)', cell: ({ dispute }) => dispute.last4, expected: 'shared.card.last4' },
    {
      header: 'Gültig bis',
      cell: ({ dispute }) => `${pad(dispute.expiry.month)}/${String(dispute.expiry.year).slice(2)}`,
      expected: 'shared.card.expiry_month',
    },
    { header: 'Karteninhaber', cell: ({ dispute }) => dispute.cardholder, expected: 'shared.cardholder.name' },
    { header: 'E-Mail', cell: ({ dispute }) => dispute.email, expected: 'shared.cardholder.email' },
    {
      header: 'Betrag',
      cell: (row) => formatAmount(row.item.amountMinor, exponentOf(row), ',', '.'),
      expected: 'case.transaction.amount',
    },
    { header: 'Währung', cell: ({ item }) => item.currency, expected: 'case.transaction.currency' },
    {
      header: 'Umsatzdatum',
      cell: ({ item }) => `${pad(item.date.day)}.${pad(item.date.month)}.${item.date.year}`,
      expected: 'case.transaction.date',
    },
    { header: 'ARN', cell: ({ item }) => item.arn, expected: 'case.transaction.arn' },
    { header: 'Händler', cell: ({ item }) => item.merchant, expected: 'case.merchant.name' },
    {
      header: 'Betrug gemeldet',
      cell: ({ dispute }) => yesNo(dispute.fraudReported, 'J', 'N'),
      expected: 'shared.issuer_evidence.fraud.was_reported',
    },
    {
      header: 'Karte aktiv',
      cell: ({ dispute }) => yesNo(dispute.cardActive, 'J', 'N'),
      expected: 'shared.issuer_evidence.card.is_active',
    },
    { header: 'Bearbeiter', cell: ({ dispute }) => (dispute.last4 < '5000' ? 'Team Nord' : 'Team Süd') },
  ],
};

/** US: `,`, `1,234.56` (quoted), MM/dd/yyyy, Y/N, spelled-out networks, UTF-8 with a BOM, LF. */
export const usLayout: ExportLayout = {
  delimiter: ',',
  encoding: 'utf-8',
  bom: true,
  lineEnding: '\n',
  columns: [
    { header: 'Dispute ID', cell: ({ dispute }) => dispute.ref, expected: 'claim.key' },
    {
      header: 'Transaction ID',
      cell: ({ dispute, item }) => `T${dispute.cases.indexOf(item) + 1}`,
      expected: 'case.case_id',
    },
    { header: 'Reason Code', cell: ({ dispute }) => dispute.reasonCode, expected: 'shared.dispute.reason' },
    {
      header: 'Card Network',
      cell: ({ dispute }) => spelledNetwork[dispute.network] ?? '',
      expected: 'shared.card.network',
    },
    { header: 'Last 4', cell: ({ dispute }) => dispute.last4, expected: 'shared.card.last4' },
    {
      header: 'Exp Date',
      cell: ({ dispute }) => `${pad(dispute.expiry.month)}/${dispute.expiry.year}`,
      expected: 'shared.card.expiry_month',
    },
    { header: 'Cardholder Name', cell: ({ dispute }) => dispute.cardholder, expected: 'shared.cardholder.name' },
    { header: 'Email', cell: ({ dispute }) => dispute.email, expected: 'shared.cardholder.email' },
    {
      header: 'Transaction Date',
      cell: ({ item }) => `${pad(item.date.month)}/${pad(item.date.day)}/${item.date.year}`,
      expected: 'case.transaction.date',
    },
    {
      header: 'Amount',
      cell: (row) => formatAmount(row.item.amountMinor, exponentOf(row), '.', ','),
      expected: 'case.transaction.amount',
    },
    {
      header: 'Disputed Amount',
      cell: (row) => formatAmount(row.item.amountMinor, exponentOf(row), '.', ','),
      expected: 'case.dispute.amount',
    },
    { header: 'Currency', cell: ({ item }) => item.currency, expected: 'case.transaction.currency' },
    { header: 'ARN', cell: ({ item }) => item.arn, expected: 'case.transaction.arn' },
    { header: 'Merchant', cell: ({ item }) => item.merchant, expected: 'case.merchant.name' },
    {
      header: 'Fraud Reported',
      cell: ({ dispute }) => yesNo(dispute.fraudReported, 'Y', 'N'),
      expected: 'shared.issuer_evidence.fraud.was_reported',
    },
  ],
};

/** French: tab, `1 234,56`, dd/MM/yyyy, O/N, windows-1252 (accented headers and names), CRLF. */
export const frenchLayout: ExportLayout = {
  delimiter: '\t',
  encoding: 'windows-1252',
  bom: false,
  lineEnding: '\r\n',
  columns: [
    { header: 'Numéro de dossier', cell: ({ dispute }) => dispute.ref, expected: 'claim.key' },
    { header: 'Motif', cell: ({ dispute }) => dispute.reasonCode, expected: 'shared.dispute.reason' },
    { header: 'Réseau', cell: ({ dispute }) => spelledNetwork[dispute.network] ?? '', expected: 'shared.card.network' },
    { header: '4 derniers chiffres', cell: ({ dispute }) => dispute.last4, expected: 'shared.card.last4' },
    {
      header: "Date d'expiration",
      cell: ({ dispute }) => `${pad(dispute.expiry.month)}/${String(dispute.expiry.year).slice(2)}`,
      expected: 'shared.card.expiry_month',
    },
    { header: 'Titulaire', cell: ({ dispute }) => dispute.cardholder, expected: 'shared.cardholder.name' },
    { header: 'Courriel', cell: ({ dispute }) => dispute.email, expected: 'shared.cardholder.email' },
    {
      header: "Date de l'opération",
      cell: ({ item }) => `${pad(item.date.day)}/${pad(item.date.month)}/${item.date.year}`,
      expected: 'case.transaction.date',
    },
    {
      header: 'Montant',
      cell: (row) => formatAmount(row.item.amountMinor, exponentOf(row), ',', ' '),
      expected: 'case.transaction.amount',
    },
    { header: 'Devise', cell: ({ item }) => item.currency, expected: 'case.transaction.currency' },
    { header: 'Référence acquéreur', cell: ({ item }) => item.arn, expected: 'case.transaction.arn' },
    { header: 'Commerçant', cell: ({ item }) => item.merchant, expected: 'case.merchant.name' },
    {
      header: 'Fraude signalée',
      cell: ({ dispute }) => yesNo(dispute.fraudReported, 'O', 'N'),
      expected: 'shared.issuer_evidence.fraud.was_reported',
    },
  ],
};

/** Spanish: `|`, JPY (`38,500`) and KWD (`1,234.567`) in one column, date-times, S/N, UTF-8, LF. */
export const spanishLayout: ExportLayout = {
  delimiter: '|',
  encoding: 'utf-8',
  bom: false,
  lineEnding: '\n',
  columns: [
    { header: 'Número de caso', cell: ({ dispute }) => dispute.ref, expected: 'claim.key' },
    { header: 'Motivo', cell: ({ dispute }) => dispute.reasonCode, expected: 'shared.dispute.reason' },
    { header: 'Marca', cell: ({ dispute }) => dispute.network, expected: 'shared.card.network' },
    { header: 'Últimos 4', cell: ({ dispute }) => dispute.last4, expected: 'shared.card.last4' },
    {
      header: 'Caducidad',
      cell: ({ dispute }) => `${pad(dispute.expiry.month)}/${String(dispute.expiry.year).slice(2)}`,
      expected: 'shared.card.expiry_month',
    },
    { header: 'Titular', cell: ({ dispute }) => dispute.cardholder, expected: 'shared.cardholder.name' },
    { header: 'Correo', cell: ({ dispute }) => dispute.email, expected: 'shared.cardholder.email' },
    {
      header: 'Fecha de operación',
      cell: ({ item }) =>
        `${item.date.year}-${pad(item.date.month)}-${pad(item.date.day)} ${pad(item.date.hour)}:${pad(item.date.minute)}:00`,
      expected: 'case.transaction.date',
    },
    {
      header: 'Importe',
      cell: (row) => formatAmount(row.item.amountMinor, exponentOf(row), '.', ','),
      expected: 'case.transaction.amount',
    },
    { header: 'Moneda', cell: ({ item }) => item.currency, expected: 'case.transaction.currency' },
    { header: 'Referencia adquirente', cell: ({ item }) => item.arn, expected: 'case.transaction.arn' },
    { header: 'Comercio', cell: ({ item }) => item.merchant, expected: 'case.merchant.name' },
    {
      header: 'Fraude denunciado',
      cell: ({ dispute }) => yesNo(dispute.fraudReported, 'S', 'N'),
      expected: 'shared.issuer_evidence.fraud.was_reported',
    },
  ],
};
