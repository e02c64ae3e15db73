import type { LanguageVocabulary } from './types.js';

/**
 * German: header names from German, Austrian and Swiss issuers (Sparkassen, Volksbanken, card
 * processors); reason labels from the networks' German plain names and back-office wording
 * ("Reklamation", "Beanstandung", "Missbrauch"). Words are glued into compounds.
 */
export const german: LanguageVocabulary = {
  language: 'German',
  compounds: true,
  headers: {
    claim_key: ['reklamation', 'reklamationsnummer', 'reklamations id', 'fallnummer', 'fall id', 'vorgangsnummer', 'vorgang', 'streitfall nr', 'streitfallnummer', 'beanstandungsnummer', 'vorgangs id'],
    case_id: ['transaktions id', 'transaktionsnummer', 'umsatz id', 'umsatznummer', 'buchungsnummer', 'belegnummer'],
    'card.last4': ['letzte 4', 'letzte vier', 'karte letzte 4', 'kartennummer letzte 4', 'kartenendziffern', 'endziffern', 'letzte 4 ziffern'],
    'card.network': ['netzwerk', 'kartennetzwerk', 'kartenmarke', 'marke', 'kartenorganisation', 'kartensystem', 'kartenschema'],
    'card.type': ['kartenart', 'kartentyp', 'art der karte'],
    expiry: ['ablaufdatum', 'gultig bis', 'verfallsdatum', 'ablauf', 'gultigkeit'],
    'card.expiry_month': ['ablaufmonat'],
    'card.expiry_year': ['ablaufjahr'],
    'cardholder.name': ['karteninhaber', 'name karteninhaber', 'kunde', 'kundenname', 'name', 'inhaber'],
    'cardholder.email': ['e mail adresse', 'email adresse', 'mail'],
    'dispute.reason': ['grund', 'reklamationsgrund', 'grund code', 'grundcode', 'einspruchsgrund', 'beanstandungsgrund', 'rueckbelastungsgrund', 'ruckbelastungsgrund', 'anlass'],
    'dispute.date': [
      'reklamationsdatum', 'datum reklamation', 'streitfalldatum', 'meldedatum', 'eroffnungsdatum', 'eroffnet am', 'eroffnet', 'datum eroffnung', 'beanstandungsdatum',
      'einspruchsdatum', 'angelegt am', 'gemeldet am', 'eingang reklamation',
    ],
    'transaction.date': ['transaktionsdatum', 'umsatzdatum', 'buchungsdatum', 'kaufdatum', 'datum', 'buchungstag', 'belegdatum'],
    'transaction.amount': ['betrag', 'umsatzbetrag', 'transaktionsbetrag', 'buchungsbetrag'],
    'dispute.amount': ['reklamationsbetrag', 'strittiger betrag', 'streitbetrag', 'beanstandeter betrag'],
    'transaction.currency': ['wahrung', 'wahrungscode', 'transaktionswahrung'],
    'transaction.arn': ['acquirer referenznummer', 'referenznummer acquirer'],
    'merchant.name': ['handler', 'handlername', 'name handler', 'akzeptanzstelle', 'geschaft', 'vertragspartner', 'zahlungsempfanger'],
    'merchant.category_code': ['branchencode', 'branche', 'handlerkategorie'],
    'issuer_evidence.card.is_active': ['karte aktiv', 'aktiv'],
    'issuer_evidence.fraud.was_reported': ['betrug gemeldet', 'betrug angezeigt', 'anzeige erstattet', 'strafanzeige'],
    'issuer_evidence.cardholder_explanation': [
      'stellungnahme', 'erklarung', 'kommentar', 'beschreibung', 'aussage karteninhaber', 'karteninhabererklarung', 'erklarung karteninhaber', 'schilderung',
      'sachverhalt', 'kundenaussage', 'bemerkung', 'bemerkungen',
    ],
    evidence: ['beleg', 'belege', 'anhang', 'anhange', 'dokumente', 'nachweis'],
  },
  headerWords: {
    'dispute.amount': ['reklamationsbetrag', 'strittig'],
    'dispute.date': ['eroffnet', 'eroffnungsdatum', 'reklamationsdatum', 'meldedatum', 'beanstandungsdatum'],
    'issuer_evidence.cardholder_explanation': ['erklarung', 'aussage', 'stellungnahme', 'schilderung', 'sachverhalt'],
    expiry: ['ablauf', 'gultig'],
    'transaction.currency': ['wahrung'],
    'transaction.amount': ['betrag'],
    'dispute.reason': ['grund'],
    'merchant.name': ['handler'],
    'cardholder.name': ['karteninhaber'],
  },
  reasons: {
    fraud: [
      'Betrug', 'betrügerische Transaktion', 'Missbrauch', 'Kartenmissbrauch', 'missbräuchliche Verwendung', 'Betrug Karte nicht vorhanden', 'Betrug Karte vorhanden',
      'nicht autorisiert', 'nicht autorisierte Transaktion', 'nicht vom Karteninhaber autorisiert', 'nicht genehmigt', 'Umsatz nicht erkannt', 'unbekannter Umsatz',
      'Karte verloren', 'Karte gestohlen', 'Verlust oder Diebstahl', 'gefälschte Karte', 'Identitätsdiebstahl', 'keine Autorisierung durch den Karteninhaber', 'Fernabsatzbetrug',
    ],
    invalid_authorization: ['fehlende Autorisierung', 'keine Genehmigung', 'Autorisierung abgelehnt', 'abgelehnte Autorisierung', 'Autorisierung abgelaufen', 'ungültige Autorisierung'],
    product_not_received: [
      'nicht erhalten', 'Ware nicht geliefert', 'nicht geliefert', 'Nichtlieferung', 'Leistung nicht erbracht', 'Dienstleistung nicht erbracht',
      'Waren oder Dienstleistungen nicht erhalten', 'Lieferung nicht erhalten', 'nicht zugestellt', 'Bestellung nicht erhalten',
    ],
    product_not_as_described: [
      'nicht wie beschrieben', 'mangelhaft', 'mangelhafte Ware', 'defekt', 'beschädigt', 'fehlerhaft', 'Qualitätsmangel', 'Mängel', 'entspricht nicht der Beschreibung',
      'nicht vertragsgemäß',
    ],
    credit_not_processed: [
      'Gutschrift nicht erfolgt', 'Gutschrift nicht verarbeitet', 'fehlende Gutschrift', 'Erstattung nicht erhalten', 'Rückerstattung nicht erfolgt',
      'keine Rückerstattung', 'Erstattung ausstehend', 'Gutschrift ausstehend',
    ],
    subscription_canceled: [
      'Abonnement gekündigt', 'Abo gekündigt', 'wiederkehrende Zahlung gekündigt', 'gekündigte wiederkehrende Transaktion', 'Belastung nach Kündigung',
      'Dauerauftrag gekündigt', 'Mitgliedschaft gekündigt', 'Abbuchung nach Kündigung',
    ],
    duplicate_charge: ['doppelte Buchung', 'Doppelbuchung', 'doppelte Abbuchung', 'Doppelbelastung', 'doppelt belastet', 'doppelt abgebucht', 'doppelt', 'doppelte Lastschrift', 'doppelte Verarbeitung', 'anderweitig bezahlt'],
    incorrect_amount: ['falscher Betrag', 'Betrag falsch', 'abweichender Betrag', 'Betragsabweichung', 'fehlerhafter Betrag', 'Betrag geändert', 'zu hoher Betrag'],
    cash_not_received: [
      'Geldautomat', 'Bargeld nicht erhalten', 'Bargeld nicht ausgegeben', 'Geldautomat hat nicht ausgezahlt', 'Auszahlung nicht erfolgt', 'Bargeldauszahlung', 'GAA',
      'Geldautomatenauszahlung fehlerhaft',
    ],
    canceled_or_returned: [
      'Bestellung storniert', 'storniert', 'Stornierung', 'Ware zurückgesandt', 'Ware retourniert', 'Rücksendung', 'Retoure', 'Buchung storniert', 'Reservierung storniert',
      'Leistung storniert',
    ],
    product_counterfeit: ['Fälschung', 'gefälschte Ware', 'Produktfälschung', 'Plagiat', 'gefälschtes Produkt', 'nachgemachte Ware'],
    other: ['Sonstiges', 'Sonstige', 'andere', 'anderer Grund', 'Diverses'],
  },
  stopWords: ['der', 'die', 'das', 'des', 'dem', 'den', 'ein', 'eine', 'einer', 'eines', 'von', 'vom', 'zur', 'zum', 'und', 'oder', 'am', 'im', 'bei', 'mit', 'fur', 'auf', 'an', 'ist', 'wurde'],
};
