import type { LanguageVocabulary } from './types.js';
import { namesByRole, wordsOf } from './word-lists.js';
import { dutchReasons } from './reasons/dutch.js';

/**
 * Dutch: header names from Dutch and Flemish issuers ("dossier", "geschil", "handelaar");
 * reason labels from the networks' Dutch plain names and back-office wording ("niet herkend",
 * "dubbel afgeschreven", "geldautomaat"). Words are glued into compounds.
 */
export const dutch: LanguageVocabulary = {
  language: 'Dutch',
  compounds: true,
  headers: namesByRole({
    claim_key:
      'dossiernummer, dossier, geschilnummer, geschil id, zaaknummer, zaak id, referentie geschil, claimnummer, klachtnummer, dossier id, chargebacknummer',
    case_id: 'transactie id, transactienummer, transactiereferentie, boekingsnummer',
    'card.last4': 'laatste 4 cijfers, laatste 4, laatste vier cijfers, kaart laatste 4',
    card_number: 'kaartnummer, kaart nummer, pasnummer, pan',
    'card.network': 'kaartmerk, merk, netwerk, kaartnetwerk, kaartschema, kaartsoort merk',
    'card.type': 'kaarttype, soort kaart, type kaart',
    expiry: 'vervaldatum, geldig tot, verloopdatum, geldigheid',
    'card.expiry_month': 'vervalmaand',
    'card.expiry_year': 'vervaljaar',
    'cardholder.name': 'kaarthouder, naam kaarthouder, klant, klantnaam, naam, rekeninghouder',
    'cardholder.email': 'e mailadres, emailadres',
    'dispute.reason': 'reden, reden geschil, redencode, oorzaak, reden chargeback, reden betwisting, soort geschil',
    'dispute.date':
      'datum geopend, geopend op, openingsdatum, datum opening, datum melding, meldingsdatum, datum geschil, geschildatum, datum klacht, aangemeld op, gemeld op',
    'transaction.date': 'transactiedatum, datum transactie, boekingsdatum, datum, aankoopdatum, betaaldatum',
    'transaction.amount': 'bedrag, transactiebedrag, bedrag transactie',
    'dispute.amount': 'betwist bedrag, bedrag betwist, geschilbedrag, betwiste bedrag',
    'transaction.currency': 'valuta, munteenheid, valutacode',
    'transaction.arn': 'acquirer referentienummer, referentienummer acquirer',
    'merchant.name': 'handelaar, winkelier, verkoper, naam handelaar, winkel, acceptant, begunstigde',
    'merchant.category_code': 'branchecode, categoriecode',
    'issuer_evidence.card.is_active': 'kaart actief, actief',
    'issuer_evidence.fraud.was_reported': 'fraude gemeld, aangifte gedaan, aangifte',
    'issuer_evidence.cardholder_explanation':
      'verklaring, verklaring kaarthouder, verklaring klant, toelichting, omschrijving, opmerking, opmerkingen, beschrijving, commentaar',
    evidence: 'bijlage, bijlagen, bewijs, bonnetje, documenten',
  }),
  headerWords: namesByRole({
    // A date to answer by, never the transaction's (assign-roles.ts).
    deadline: 'deadline, uiterste datum, termijn',
    card_number: 'kaartnummer, pasnummer',
    'dispute.amount': 'betwist',
    'dispute.date': 'geopend, openingsdatum, meldingsdatum, datum melding',
    'issuer_evidence.cardholder_explanation': 'verklaring, toelichting',
    'transaction.currency': 'valuta',
    'transaction.amount': 'bedrag',
    'dispute.reason': 'reden',
    'merchant.name': 'handelaar',
    'card.network': 'kaartmerk',
    'cardholder.name': 'kaarthouder',
  }),
  reasons: dutchReasons,
  stopWords: wordsOf('de het een van voor op met en of door te bij aan naar is werd'),
};
