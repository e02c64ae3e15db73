/**
 * Header names of card exports → what the column holds (issue 14), in English, German, French
 * and Spanish. Besides new_claim targets there are three roles a mapping places elsewhere:
 * `claim_key` (the dispute reference rows share), `expiry` (one `MM/YY` cell for two targets)
 * and `evidence` (file paths).
 */
export type HeaderRole = string;

export type Language = 'English' | 'German' | 'French' | 'Spanish';

export interface HeaderMatch {
  readonly role: HeaderRole;
  readonly language: Language;
  /** `exact`: the whole name is a known header; `keyword`: the name contains a telling word. */
  readonly how: 'exact' | 'keyword';
}

type Aliases = Partial<Record<Language, readonly string[]>>;

/** Whole header names, normalised (lower case, no accents, words separated by one space). */
const exactNames: Readonly<Record<HeaderRole, Aliases>> = {
  claim_key: {
    English: ['dispute ref', 'dispute reference', 'dispute id', 'dispute number', 'claim ref', 'claim reference', 'claim id', 'case ref', 'case reference', 'case number', 'chargeback id', 'chargeback ref'],
    German: ['reklamation', 'reklamationsnummer', 'reklamations id', 'fallnummer', 'fall id', 'vorgangsnummer', 'vorgang', 'streitfall nr', 'streitfallnummer'],
    French: ['reference litige', 'ref litige', 'numero de litige', 'numero litige', 'numero de dossier', 'dossier', 'id litige'],
    Spanish: ['referencia disputa', 'referencia de la disputa', 'numero de disputa', 'id disputa', 'numero de caso', 'expediente', 'numero de reclamacion'],
  },
  case_id: {
    English: ['transaction ref', 'transaction reference', 'transaction id', 'txn id', 'txn ref', 'case id', 'item id'],
    German: ['transaktions id', 'transaktionsnummer', 'umsatz id', 'umsatznummer', 'buchungsnummer', 'belegnummer'],
    French: ['id transaction', 'reference transaction', 'numero de transaction', 'reference operation'],
    Spanish: ['id transaccion', 'referencia transaccion', 'numero de transaccion', 'numero de operacion'],
  },
  'card.last4': {
    English: ['last4', 'last 4', 'card last4', 'card last 4', 'last four', 'card last four', 'pan last4', 'last 4 digits'],
    German: ['letzte 4', 'letzte vier', 'karte letzte 4', 'kartennummer letzte 4', 'kartenendziffern', 'endziffern'],
    French: ['4 derniers chiffres', 'derniers chiffres', 'fin de carte', 'carte 4 derniers'],
    Spanish: ['ultimos 4', 'ultimos 4 digitos', 'ultimos cuatro', 'tarjeta ultimos 4'],
  },
  'card.network': {
    English: ['network', 'card network', 'scheme', 'card scheme', 'brand', 'card brand'],
    German: ['netzwerk', 'kartennetzwerk', 'kartenmarke', 'marke', 'kartenorganisation', 'kartensystem'],
    French: ['reseau', 'reseau carte', 'marque', 'marque carte', 'schema'],
    Spanish: ['red', 'red de tarjeta', 'marca', 'marca tarjeta', 'franquicia'],
  },
  'card.type': {
    English: ['card type', 'type of card', 'funding', 'funding type'],
    German: ['kartenart', 'kartentyp', 'art der karte'],
    French: ['type de carte', 'type carte'],
    Spanish: ['tipo de tarjeta', 'tipo tarjeta'],
  },
  expiry: {
    English: ['expiry', 'card expiry', 'expiry date', 'exp date', 'expiration', 'expiration date', 'valid thru', 'valid through', 'exp'],
    German: ['ablaufdatum', 'gultig bis', 'verfallsdatum', 'ablauf'],
    French: ['date d expiration', 'expiration', 'date expiration', 'validite'],
    Spanish: ['fecha de caducidad', 'caducidad', 'vencimiento', 'fecha de vencimiento', 'fecha vencimiento'],
  },
  'card.expiry_month': { English: ['expiry month', 'exp month', 'card expiry month'], German: ['ablaufmonat'], French: ['mois d expiration'], Spanish: ['mes de caducidad', 'mes vencimiento'] },
  'card.expiry_year': { English: ['expiry year', 'exp year', 'card expiry year'], German: ['ablaufjahr'], French: ['annee d expiration'], Spanish: ['ano de caducidad', 'ano vencimiento'] },
  'cardholder.name': {
    English: ['cardholder', 'cardholder name', 'card holder', 'card holder name', 'customer name', 'name'],
    German: ['karteninhaber', 'name karteninhaber', 'kunde', 'kundenname', 'name'],
    French: ['titulaire', 'nom du titulaire', 'nom titulaire', 'porteur', 'nom du porteur', 'nom'],
    Spanish: ['titular', 'nombre del titular', 'nombre titular', 'tarjetahabiente', 'nombre'],
  },
  'cardholder.email': {
    English: ['email', 'e mail', 'cardholder email', 'email address', 'customer email'],
    German: ['e mail adresse', 'email adresse', 'mail'],
    French: ['courriel', 'adresse e mail', 'adresse email', 'mail'],
    Spanish: ['correo', 'correo electronico', 'email del titular'],
  },
  'dispute.reason': {
    English: ['reason', 'reason code', 'dispute reason', 'chargeback reason', 'dispute reason code'],
    German: ['grund', 'reklamationsgrund', 'grund code', 'grundcode', 'einspruchsgrund'],
    French: ['motif', 'code motif', 'motif du litige', 'raison'],
    Spanish: ['motivo', 'codigo de motivo', 'motivo de la disputa', 'razon'],
  },
  'dispute.date': {
    English: ['dispute date', 'date of dispute', 'claim date', 'chargeback date', 'opened', 'reported date'],
    German: ['reklamationsdatum', 'datum reklamation', 'streitfalldatum', 'meldedatum'],
    French: ['date du litige', 'date litige', 'date de reclamation'],
    Spanish: ['fecha de la disputa', 'fecha disputa', 'fecha de reclamacion'],
  },
  'transaction.date': {
    English: ['transaction date', 'txn date', 'purchase date', 'date'],
    German: ['transaktionsdatum', 'umsatzdatum', 'buchungsdatum', 'kaufdatum', 'datum'],
    French: ['date de transaction', 'date transaction', 'date de l operation', 'date operation', 'date d achat', 'date'],
    Spanish: ['fecha de transaccion', 'fecha transaccion', 'fecha de operacion', 'fecha de compra', 'fecha'],
  },
  'transaction.amount': {
    English: ['amount', 'transaction amount', 'txn amount', 'purchase amount'],
    German: ['betrag', 'umsatzbetrag', 'transaktionsbetrag', 'buchungsbetrag'],
    French: ['montant', 'montant transaction', 'montant de la transaction', 'montant operation'],
    Spanish: ['importe', 'monto', 'importe transaccion', 'importe de la transaccion', 'monto transaccion'],
  },
  'dispute.amount': {
    English: ['disputed amount', 'dispute amount', 'chargeback amount', 'claim amount'],
    German: ['reklamationsbetrag', 'strittiger betrag', 'streitbetrag'],
    French: ['montant conteste', 'montant du litige', 'montant litige'],
    Spanish: ['importe disputado', 'monto disputado', 'importe reclamado', 'importe de la disputa'],
  },
  'transaction.currency': {
    English: ['currency', 'transaction currency', 'currency code', 'ccy', 'cur'],
    German: ['wahrung', 'wahrungscode', 'transaktionswahrung'],
    French: ['devise', 'monnaie', 'code devise'],
    Spanish: ['moneda', 'divisa', 'codigo de moneda'],
  },
  'transaction.arn': {
    English: ['arn', 'acquirer reference number', 'acquirer reference', 'acquirer ref'],
    German: ['acquirer referenznummer', 'referenznummer acquirer'],
    French: ['reference acquereur', 'numero de reference acquereur'],
    Spanish: ['referencia adquirente', 'numero de referencia del adquirente'],
  },
  'merchant.name': {
    English: ['merchant', 'merchant name', 'store', 'shop', 'payee'],
    German: ['handler', 'handlername', 'name handler', 'akzeptanzstelle', 'geschaft'],
    French: ['commercant', 'nom du commercant', 'nom commercant', 'marchand', 'enseigne'],
    Spanish: ['comercio', 'nombre del comercio', 'nombre comercio', 'establecimiento'],
  },
  'merchant.category_code': {
    English: ['mcc', 'merchant category code', 'category code', 'merchant category'],
    German: ['branchencode', 'branche', 'handlerkategorie'],
    French: ['code categorie', 'code mcc', 'categorie commercant'],
    Spanish: ['codigo de categoria', 'categoria del comercio', 'codigo mcc'],
  },
  'issuer_evidence.card.is_active': {
    English: ['card active', 'is active', 'card is active', 'active'],
    German: ['karte aktiv', 'aktiv'],
    French: ['carte active', 'active'],
    Spanish: ['tarjeta activa', 'activa'],
  },
  'issuer_evidence.fraud.was_reported': {
    English: ['fraud reported', 'fraud was reported', 'reported as fraud', 'police report'],
    German: ['betrug gemeldet', 'betrug angezeigt', 'anzeige erstattet'],
    French: ['fraude signalee', 'fraude declaree', 'plainte deposee'],
    Spanish: ['fraude reportado', 'fraude denunciado', 'denuncia presentada'],
  },
  'issuer_evidence.cardholder_explanation': {
    English: ['cardholder statement', 'statement', 'cardholder explanation', 'explanation', 'comment', 'description'],
    German: ['stellungnahme', 'erklarung', 'kommentar', 'beschreibung', 'aussage karteninhaber'],
    French: ['declaration', 'explication', 'commentaire', 'description'],
    Spanish: ['declaracion', 'explicacion', 'comentario', 'descripcion'],
  },
  evidence: {
    English: ['receipt', 'receipt file', 'evidence', 'evidence file', 'attachment', 'attachments', 'files', 'documents', 'correspondence', 'correspondence files'],
    German: ['beleg', 'belege', 'anhang', 'anhange', 'dokumente', 'nachweis'],
    French: ['justificatif', 'justificatifs', 'piece jointe', 'pieces jointes', 'documents'],
    Spanish: ['comprobante', 'adjunto', 'adjuntos', 'documentos', 'justificante'],
  },
};

/**
 * Words that name a role inside a longer header ("Betrag in EUR", "Card Network Name"), tried
 * in this order so that the longer meaning wins: "disputed amount" before "amount".
 */
const keywords: readonly { role: HeaderRole; language: Language; words: readonly string[] }[] = [
  { role: 'dispute.amount', language: 'English', words: ['disputed amount', 'chargeback amount'] },
  { role: 'dispute.amount', language: 'German', words: ['reklamationsbetrag', 'strittig'] },
  { role: 'dispute.amount', language: 'French', words: ['conteste'] },
  { role: 'dispute.amount', language: 'Spanish', words: ['disputado', 'reclamado'] },
  { role: 'dispute.date', language: 'English', words: ['dispute date', 'chargeback date'] },
  { role: 'transaction.arn', language: 'English', words: ['arn', 'acquirer reference'] },
  { role: 'card.last4', language: 'English', words: ['last4', 'last 4', 'last four'] },
  { role: 'expiry', language: 'English', words: ['expiry', 'expiration'] },
  { role: 'expiry', language: 'German', words: ['ablauf', 'gultig'] },
  { role: 'transaction.currency', language: 'English', words: ['currency'] },
  { role: 'transaction.currency', language: 'German', words: ['wahrung'] },
  { role: 'transaction.currency', language: 'French', words: ['devise'] },
  { role: 'transaction.currency', language: 'Spanish', words: ['moneda', 'divisa'] },
  { role: 'transaction.amount', language: 'English', words: ['amount'] },
  { role: 'transaction.amount', language: 'German', words: ['betrag'] },
  { role: 'transaction.amount', language: 'French', words: ['montant'] },
  { role: 'transaction.amount', language: 'Spanish', words: ['importe', 'monto'] },
  { role: 'cardholder.email', language: 'English', words: ['email', 'e mail'] },
  { role: 'dispute.reason', language: 'English', words: ['reason'] },
  { role: 'dispute.reason', language: 'German', words: ['grund'] },
  { role: 'dispute.reason', language: 'French', words: ['motif'] },
  { role: 'dispute.reason', language: 'Spanish', words: ['motivo'] },
  { role: 'merchant.name', language: 'English', words: ['merchant'] },
  { role: 'merchant.name', language: 'German', words: ['handler'] },
  { role: 'merchant.name', language: 'French', words: ['commercant'] },
  { role: 'merchant.name', language: 'Spanish', words: ['comercio'] },
  { role: 'card.network', language: 'English', words: ['network', 'scheme', 'brand'] },
  { role: 'cardholder.name', language: 'English', words: ['cardholder', 'card holder'] },
  { role: 'cardholder.name', language: 'German', words: ['karteninhaber'] },
  { role: 'cardholder.name', language: 'French', words: ['titulaire'] },
  { role: 'cardholder.name', language: 'Spanish', words: ['titular'] },
];

/** Lower case, accents and ß folded, every run of other characters one space: "Währung (ISO)" → "wahrung iso". */
export function normaliseHeader(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const exactIndex: ReadonlyMap<string, HeaderMatch> = (() => {
  const index = new Map<string, HeaderMatch>();
  for (const [role, aliases] of Object.entries(exactNames)) {
    for (const [language, names] of Object.entries(aliases) as [Language, readonly string[]][]) {
      // The first role to claim a name keeps it ("name" is the cardholder's in every language).
      for (const name of names) if (!index.has(name)) index.set(name, { role, language, how: 'exact' });
    }
  }
  return index;
})();

/** What a header name says its column holds, if anything. */
export function matchHeader(name: string): HeaderMatch | undefined {
  const normalised = normaliseHeader(name);
  const exact = exactIndex.get(normalised) ?? exactIndex.get(normalised.replace(/ /g, ''));
  if (exact !== undefined) return exact;
  const padded = ` ${normalised} `;
  const squashed = normalised.replace(/ /g, '');
  for (const { role, language, words } of keywords) {
    // Whole words in the spaced form; German compounds ("Umsatzbetrag") in the squashed one.
    const found = words.some((word) => padded.includes(` ${word} `) || (language === 'German' && squashed.includes(word.replace(/ /g, ''))));
    if (found) return { role, language, how: 'keyword' };
  }
  return undefined;
}
