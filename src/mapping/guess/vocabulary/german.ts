import type { LanguageVocabulary } from './types.js';
import { namesByRole, wordsOf } from './word-lists.js';
import { germanReasons } from './reasons/german.js';

/**
 * German: header names from German, Austrian and Swiss issuers (Sparkassen, Volksbanken, card
 * processors); reason labels from the networks' German plain names and back-office wording
 * ("Reklamation", "Beanstandung", "Missbrauch"). Words are glued into compounds.
 */
export const german: LanguageVocabulary = {
  language: 'German',
  compounds: true,
  headers: namesByRole({
    claim_key:
      'reklamation, reklamationsnummer, reklamations id, fallnummer, fall id, vorgangsnummer, vorgang, streitfall nr, streitfallnummer, beanstandungsnummer, vorgangs id',
    case_id: 'transaktions id, transaktionsnummer, umsatz id, umsatznummer, buchungsnummer, belegnummer',
    'card.last4':
      'letzte 4, letzte vier, karte letzte 4, kartennummer letzte 4, kartenendziffern, endziffern, letzte 4 ziffern',
    card_number: 'kartennummer, karten nr, kartennr, karten nummer, pan, kartennummer pan',
    'card.network': 'netzwerk, kartennetzwerk, kartenmarke, marke, kartenorganisation, kartensystem, kartenschema',
    'card.type': 'kartenart, kartentyp, art der karte',
    expiry: 'ablaufdatum, gultig bis, verfallsdatum, ablauf, gultigkeit',
    'card.expiry_month': 'ablaufmonat',
    'card.expiry_year': 'ablaufjahr',
    'cardholder.name': 'karteninhaber, name karteninhaber, kunde, kundenname, name, inhaber',
    'cardholder.email': 'e mail adresse, email adresse, mail',
    'dispute.reason':
      'grund, reklamationsgrund, grund code, grundcode, einspruchsgrund, beanstandungsgrund, rueckbelastungsgrund, ruckbelastungsgrund, anlass',
    'dispute.date':
      'reklamationsdatum, datum reklamation, streitfalldatum, meldedatum, eroffnungsdatum, eroffnet am, eroffnet, datum eroffnung, beanstandungsdatum, einspruchsdatum, angelegt am, gemeldet am, eingang reklamation',
    'transaction.date': 'transaktionsdatum, umsatzdatum, buchungsdatum, kaufdatum, datum, buchungstag, belegdatum',
    'transaction.amount': 'betrag, umsatzbetrag, transaktionsbetrag, buchungsbetrag',
    'dispute.amount': 'reklamationsbetrag, strittiger betrag, streitbetrag, beanstandeter betrag',
    'transaction.currency': 'wahrung, wahrungscode, transaktionswahrung',
    'transaction.arn': 'acquirer referenznummer, referenznummer acquirer',
    'merchant.name':
      'handler, handlername, name handler, akzeptanzstelle, geschaft, vertragspartner, zahlungsempfanger',
    'merchant.category_code': 'branchencode, branche, handlerkategorie',
    'issuer_evidence.card.is_active': 'karte aktiv, aktiv',
    'issuer_evidence.fraud.was_reported': 'betrug gemeldet, betrug angezeigt, anzeige erstattet, strafanzeige',
    'issuer_evidence.cardholder_explanation':
      'stellungnahme, erklarung, kommentar, beschreibung, aussage karteninhaber, karteninhabererklarung, erklarung karteninhaber, schilderung, sachverhalt, kundenaussage, bemerkung, bemerkungen',
    evidence: 'beleg, belege, anhang, anhange, dokumente, nachweis',
  }),
  headerWords: namesByRole({
    // A date to answer by, never the transaction's (assign-roles.ts).
    deadline: 'frist, falligkeit',
    card_number: 'kartennummer, kartennr',
    'dispute.amount': 'reklamationsbetrag, strittig',
    'dispute.date': 'eroffnet, eroffnungsdatum, reklamationsdatum, meldedatum, beanstandungsdatum',
    'issuer_evidence.cardholder_explanation': 'erklarung, aussage, stellungnahme, schilderung, sachverhalt',
    expiry: 'ablauf, gultig',
    'transaction.currency': 'wahrung',
    'transaction.amount': 'betrag',
    'dispute.reason': 'grund',
    'merchant.name': 'handler',
    'cardholder.name': 'karteninhaber',
  }),
  reasons: germanReasons,
  stopWords: wordsOf(
    'der die das des dem den ein eine einer eines von vom zur zum und oder am im bei mit fur auf an ist wurde',
  ),
};
