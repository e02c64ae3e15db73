import type { LanguageVocabulary } from './types.js';

/**
 * Dutch: header names from Dutch and Flemish issuers ("dossier", "geschil", "handelaar");
 * reason labels from the networks' Dutch plain names and back-office wording ("niet herkend",
 * "dubbel afgeschreven", "geldautomaat"). Words are glued into compounds.
 */
export const dutch: LanguageVocabulary = {
  language: 'Dutch',
  compounds: true,
  headers: {
    claim_key: ['dossiernummer', 'dossier', 'geschilnummer', 'geschil id', 'zaaknummer', 'zaak id', 'referentie geschil', 'claimnummer', 'klachtnummer', 'dossier id', 'chargebacknummer'],
    case_id: ['transactie id', 'transactienummer', 'transactiereferentie', 'boekingsnummer'],
    'card.last4': ['laatste 4 cijfers', 'laatste 4', 'laatste vier cijfers', 'kaart laatste 4'],
    'card.network': ['kaartmerk', 'merk', 'netwerk', 'kaartnetwerk', 'kaartschema', 'kaartsoort merk'],
    'card.type': ['kaarttype', 'soort kaart', 'type kaart'],
    expiry: ['vervaldatum', 'geldig tot', 'verloopdatum', 'geldigheid'],
    'card.expiry_month': ['vervalmaand'],
    'card.expiry_year': ['vervaljaar'],
    'cardholder.name': ['kaarthouder', 'naam kaarthouder', 'klant', 'klantnaam', 'naam', 'rekeninghouder'],
    'cardholder.email': ['e mailadres', 'emailadres'],
    'dispute.reason': ['reden', 'reden geschil', 'redencode', 'oorzaak', 'reden chargeback', 'reden betwisting', 'soort geschil'],
    'dispute.date': ['datum geopend', 'geopend op', 'openingsdatum', 'datum opening', 'datum melding', 'meldingsdatum', 'datum geschil', 'geschildatum', 'datum klacht', 'aangemeld op', 'gemeld op'],
    'transaction.date': ['transactiedatum', 'datum transactie', 'boekingsdatum', 'datum', 'aankoopdatum', 'betaaldatum'],
    'transaction.amount': ['bedrag', 'transactiebedrag', 'bedrag transactie'],
    'dispute.amount': ['betwist bedrag', 'bedrag betwist', 'geschilbedrag', 'betwiste bedrag'],
    'transaction.currency': ['valuta', 'munteenheid', 'valutacode'],
    'transaction.arn': ['acquirer referentienummer', 'referentienummer acquirer'],
    'merchant.name': ['handelaar', 'winkelier', 'verkoper', 'naam handelaar', 'winkel', 'acceptant', 'begunstigde'],
    'merchant.category_code': ['branchecode', 'categoriecode'],
    'issuer_evidence.card.is_active': ['kaart actief', 'actief'],
    'issuer_evidence.fraud.was_reported': ['fraude gemeld', 'aangifte gedaan', 'aangifte'],
    'issuer_evidence.cardholder_explanation': ['verklaring', 'verklaring kaarthouder', 'verklaring klant', 'toelichting', 'omschrijving', 'opmerking', 'opmerkingen', 'beschrijving', 'commentaar'],
    evidence: ['bijlage', 'bijlagen', 'bewijs', 'bonnetje', 'documenten'],
  },
  headerWords: {
    'dispute.amount': ['betwist'],
    'dispute.date': ['geopend', 'openingsdatum', 'meldingsdatum', 'datum melding'],
    'issuer_evidence.cardholder_explanation': ['verklaring', 'toelichting'],
    'transaction.currency': ['valuta'],
    'transaction.amount': ['bedrag'],
    'dispute.reason': ['reden'],
    'merchant.name': ['handelaar'],
    'card.network': ['kaartmerk'],
    'cardholder.name': ['kaarthouder'],
  },
  reasons: {
    fraud: [
      'fraude', 'frauduleuze transactie', 'misbruik', 'kaartmisbruik', 'fraude kaart niet aanwezig', 'fraude kaart aanwezig', 'andere fraude', 'niet geautoriseerd',
      'niet geautoriseerde transactie', 'niet geautoriseerd door kaarthouder', 'niet herkend', 'transactie niet herkend', 'onbekende transactie', 'onbekende afschrijving', 'kaart verloren',
      'kaart gestolen', 'verlies of diefstal', 'gekopieerde kaart', 'skimming', 'identiteitsfraude',
    ],
    invalid_authorization: ['geen autorisatie', 'autorisatie geweigerd', 'geweigerde autorisatie', 'autorisatie verlopen', 'ongeldige autorisatie', 'ontbrekende autorisatie'],
    product_not_received: [
      'niet ontvangen', 'goederen niet ontvangen', 'product niet ontvangen', 'niet geleverd', 'niet bezorgd', 'dienst niet geleverd', 'dienst niet verleend',
      'goederen of diensten niet geleverd', 'bestelling niet ontvangen', 'levering niet ontvangen',
    ],
    product_not_as_described: [
      'niet zoals beschreven', 'niet conform beschrijving', 'defect', 'defect product', 'beschadigd', 'kapot', 'gebrekkig', 'kwaliteitsprobleem', 'ondeugdelijk',
      'wijkt af van beschrijving',
    ],
    credit_not_processed: [
      'creditering niet verwerkt', 'creditering niet ontvangen', 'terugbetaling niet verwerkt', 'geen terugbetaling', 'restitutie niet ontvangen', 'restitutie niet verwerkt',
      'terugstorting niet ontvangen', 'tegoed niet ontvangen',
    ],
    subscription_canceled: [
      'abonnement opgezegd', 'abonnement beëindigd', 'abonnement geannuleerd', 'terugkerende betaling geannuleerd', 'incasso na opzegging', 'afschrijving na opzegging',
      'lidmaatschap opgezegd',
    ],
    duplicate_charge: ['dubbele afschrijving', 'dubbel afgeschreven', 'dubbele boeking', 'dubbel geboekt', 'dubbele betaling', 'dubbel betaald', 'twee keer afgeschreven', 'op andere wijze betaald'],
    incorrect_amount: ['onjuist bedrag', 'verkeerd bedrag', 'afwijkend bedrag', 'bedrag klopt niet', 'te hoog bedrag', 'gewijzigd bedrag'],
    cash_not_received: ['geldautomaat', 'geld niet ontvangen', 'geen geld ontvangen', 'contant geld niet ontvangen', 'opname niet uitbetaald', 'geldopname mislukt', 'biljetten niet uitgegeven', 'ATM'],
    canceled_or_returned: ['bestelling geannuleerd', 'geannuleerd', 'annulering', 'reservering geannuleerd', 'goederen geretourneerd', 'retour', 'product teruggestuurd', 'dienst geannuleerd'],
    product_counterfeit: ['namaak', 'namaakgoederen', 'vervalst product', 'vervalsing', 'nep product', 'nagemaakt'],
    other: ['overig', 'overige', 'anders', 'andere reden', 'diversen'],
  },
  stopWords: ['de', 'het', 'een', 'van', 'voor', 'op', 'met', 'en', 'of', 'door', 'te', 'bij', 'aan', 'naar', 'is', 'werd'],
};
