import type { LanguageVocabulary } from './types.js';
import { namesByRole, wordsOf } from './word-lists.js';
import { frenchReasons } from './reasons/french.js';

/**
 * French: header names from French, Belgian and Swiss issuers; reason labels from the networks'
 * French plain names (motifs Visa/Mastercard, CB) and back-office wording ("VAD" is vente à
 * distance, card-absent; "DAB"/"GAB" a cash machine).
 */
export const french: LanguageVocabulary = {
  language: 'French',
  compounds: false,
  headers: namesByRole({
    claim_key:
      'reference litige, ref litige, numero de litige, numero litige, numero de dossier, dossier, id litige, reference dossier, ref dossier, numero de contestation, reference contestation, numero de reclamation',
    case_id: 'id transaction, reference transaction, numero de transaction, reference operation, numero d operation',
    'card.last4': '4 derniers chiffres, derniers chiffres, fin de carte, carte 4 derniers, quatre derniers chiffres',
    card_number: 'numero de carte, numero carte, no de carte, n de carte, num carte, pan, numero de la carte',
    'card.network': 'reseau, reseau carte, marque, marque carte, schema, reseau de carte',
    'card.type': 'type de carte, type carte, nature de carte',
    expiry: 'date d expiration, expiration, date expiration, validite, date de validite, date de fin de validite',
    'card.expiry_month': 'mois d expiration',
    'card.expiry_year': 'annee d expiration',
    'cardholder.name':
      'titulaire, nom du titulaire, nom titulaire, porteur, nom du porteur, nom, client, nom du client',
    'cardholder.email': 'courriel, adresse e mail, adresse email, mail, adresse electronique',
    'dispute.reason':
      'motif, code motif, motif du litige, raison, motif de contestation, motif de la contestation, motif de reclamation, nature du litige, type de litige',
    'dispute.date':
      'date du litige, date litige, date de reclamation, date d ouverture, date ouverture, date d ouverture du dossier, ouvert le, date de contestation, date contestation, date de declaration, date de signalement, date de creation du dossier',
    'transaction.date':
      'date de transaction, date transaction, date de l operation, date operation, date d achat, date, date de paiement',
    'transaction.amount':
      'montant, montant transaction, montant de la transaction, montant operation, montant de l operation',
    'dispute.amount': 'montant conteste, montant du litige, montant litige, montant reclame',
    'transaction.currency': 'devise, monnaie, code devise',
    'transaction.arn': 'reference acquereur, numero de reference acquereur',
    'merchant.name': 'commercant, nom du commercant, nom commercant, marchand, enseigne, accepteur, beneficiaire',
    'merchant.category_code': 'code categorie, code mcc, categorie commercant',
    'issuer_evidence.card.is_active': 'carte active, active',
    'issuer_evidence.fraud.was_reported': 'fraude signalee, fraude declaree, plainte deposee, depot de plainte',
    'issuer_evidence.cardholder_explanation':
      'declaration, explication, commentaire, commentaires, description, declaration du porteur, declaration porteur, declaration du titulaire, declaration du client, explication du client, observations, recit du porteur',
    evidence: 'justificatif, justificatifs, piece jointe, pieces jointes, documents',
  }),
  headerWords: namesByRole({
    // A date to answer by, never the transaction's (assign-roles.ts).
    deadline: 'date limite, date butoir, echeance, delai de reponse',
    card_number: 'numero de carte, numero carte',
    'dispute.amount': 'conteste',
    'dispute.date': 'date d ouverture, ouvert le, date du litige, date de contestation, date de reclamation',
    'issuer_evidence.cardholder_explanation': 'declaration, explication, commentaire',
    'transaction.currency': 'devise',
    'transaction.amount': 'montant',
    'dispute.reason': 'motif',
    'merchant.name': 'commercant',
    'cardholder.name': 'titulaire, porteur',
  }),
  reasons: frenchReasons,
  stopWords: wordsOf('le la les l un une de du des d au aux a par pour sur avec et ou en ce cet cette est'),
};
