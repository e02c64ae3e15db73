import type { LanguageVocabulary } from './types.js';

/**
 * French: header names from French, Belgian and Swiss issuers; reason labels from the networks'
 * French plain names (motifs Visa/Mastercard, CB) and back-office wording ("VAD" is vente à
 * distance, card-absent; "DAB"/"GAB" a cash machine).
 */
export const french: LanguageVocabulary = {
  language: 'French',
  compounds: false,
  headers: {
    claim_key: ['reference litige', 'ref litige', 'numero de litige', 'numero litige', 'numero de dossier', 'dossier', 'id litige', 'reference dossier', 'ref dossier', 'numero de contestation', 'reference contestation', 'numero de reclamation'],
    case_id: ['id transaction', 'reference transaction', 'numero de transaction', 'reference operation', 'numero d operation'],
    'card.last4': ['4 derniers chiffres', 'derniers chiffres', 'fin de carte', 'carte 4 derniers', 'quatre derniers chiffres'],
    'card.network': ['reseau', 'reseau carte', 'marque', 'marque carte', 'schema', 'reseau de carte'],
    'card.type': ['type de carte', 'type carte', 'nature de carte'],
    expiry: ['date d expiration', 'expiration', 'date expiration', 'validite', 'date de validite', 'date de fin de validite'],
    'card.expiry_month': ['mois d expiration'],
    'card.expiry_year': ['annee d expiration'],
    'cardholder.name': ['titulaire', 'nom du titulaire', 'nom titulaire', 'porteur', 'nom du porteur', 'nom', 'client', 'nom du client'],
    'cardholder.email': ['courriel', 'adresse e mail', 'adresse email', 'mail', 'adresse electronique'],
    'dispute.reason': ['motif', 'code motif', 'motif du litige', 'raison', 'motif de contestation', 'motif de la contestation', 'motif de reclamation', 'nature du litige', 'type de litige'],
    'dispute.date': [
      'date du litige', 'date litige', 'date de reclamation', 'date d ouverture', 'date ouverture', 'date d ouverture du dossier', 'ouvert le', 'date de contestation',
      'date contestation', 'date de declaration', 'date de signalement', 'date de creation du dossier',
    ],
    'transaction.date': ['date de transaction', 'date transaction', 'date de l operation', 'date operation', 'date d achat', 'date', 'date de paiement'],
    'transaction.amount': ['montant', 'montant transaction', 'montant de la transaction', 'montant operation', 'montant de l operation'],
    'dispute.amount': ['montant conteste', 'montant du litige', 'montant litige', 'montant reclame'],
    'transaction.currency': ['devise', 'monnaie', 'code devise'],
    'transaction.arn': ['reference acquereur', 'numero de reference acquereur'],
    'merchant.name': ['commercant', 'nom du commercant', 'nom commercant', 'marchand', 'enseigne', 'accepteur', 'beneficiaire'],
    'merchant.category_code': ['code categorie', 'code mcc', 'categorie commercant'],
    'issuer_evidence.card.is_active': ['carte active', 'active'],
    'issuer_evidence.fraud.was_reported': ['fraude signalee', 'fraude declaree', 'plainte deposee', 'depot de plainte'],
    'issuer_evidence.cardholder_explanation': [
      'declaration', 'explication', 'commentaire', 'commentaires', 'description', 'declaration du porteur', 'declaration porteur', 'declaration du titulaire',
      'declaration du client', 'explication du client', 'observations', 'recit du porteur',
    ],
    evidence: ['justificatif', 'justificatifs', 'piece jointe', 'pieces jointes', 'documents'],
  },
  headerWords: {
    'dispute.amount': ['conteste'],
    'dispute.date': ['date d ouverture', 'ouvert le', 'date du litige', 'date de contestation', 'date de reclamation'],
    'issuer_evidence.cardholder_explanation': ['declaration', 'explication', 'commentaire'],
    'transaction.currency': ['devise'],
    'transaction.amount': ['montant'],
    'dispute.reason': ['motif'],
    'merchant.name': ['commercant'],
    'cardholder.name': ['titulaire', 'porteur'],
  },
  reasons: {
    fraud: [
      'fraude', 'opération frauduleuse', 'utilisation frauduleuse', 'paiement frauduleux', 'fraude carte non présente', 'fraude VAD', 'fraude vente à distance',
      'fraude carte présente', 'autre fraude', 'opération non autorisée', 'paiement non autorisé', 'transaction non autorisée', 'non autorisé par le porteur',
      'opération non reconnue', 'transaction non reconnue', 'non reconnu', 'carte perdue', 'carte volée', 'perte ou vol', 'carte contrefaite', 'usurpation d\'identité',
      'absence d\'autorisation du titulaire', 'contestation porteur fraude',
    ],
    invalid_authorization: ['absence d\'autorisation', 'défaut d\'autorisation', 'autorisation refusée', 'autorisation expirée', 'autorisation invalide', 'sans autorisation'],
    product_not_received: [
      'non reçu', 'marchandise non reçue', 'marchandise non livrée', 'non livré', 'non livraison', 'défaut de livraison', 'service non rendu', 'prestation non fournie',
      'prestation non effectuée', 'bien ou service non fourni', 'commande non reçue', 'colis non reçu', 'article non reçu', 'non réception',
    ],
    product_not_as_described: [
      'non conforme', 'non conforme à la description', 'marchandise non conforme', 'marchandise défectueuse', 'produit défectueux', 'article défectueux', 'défectueux',
      'endommagé', 'produit endommagé', 'vice caché', 'qualité non conforme', 'ne correspond pas à la description', 'défaut de conformité',
    ],
    credit_not_processed: [
      'remboursement non reçu', 'remboursement non effectué', 'remboursement non traité', 'avoir non crédité', 'crédit non traité', 'crédit non reçu', 'remboursement promis',
      'remboursement non crédité', 'absence de remboursement', 'avoir non reçu',
    ],
    subscription_canceled: [
      'abonnement résilié', 'abonnement annulé', 'prélèvement récurrent annulé', 'paiement récurrent annulé', 'récurrent annulé', 'débit après résiliation',
      'résiliation abonnement', 'paiement récurrent après résiliation', 'résiliation non prise en compte',
    ],
    duplicate_charge: [
      'double débit', 'débit en double', 'doublon', 'paiement en double', 'double paiement', 'traitement en double', 'double facturation', 'débité deux fois',
      'payé par un autre moyen', 'opération en double',
    ],
    incorrect_amount: ['montant erroné', 'montant incorrect', 'montant différent', 'erreur de montant', 'montant débité incorrect', 'montant modifié', 'surfacturation'],
    cash_not_received: [
      'retrait non servi', 'billets non distribués', 'DAB', 'GAB', 'retrait DAB', 'distributeur', 'retrait GAB non servi', 'espèces non reçues', 'espèces non délivrées',
      'retrait partiellement servi',
    ],
    canceled_or_returned: [
      'commande annulée', 'réservation annulée', 'prestation annulée', 'service annulé', 'marchandise retournée', 'article retourné', 'retour marchandise',
      'annulation de commande', 'marchandise annulée',
    ],
    product_counterfeit: ['contrefaçon', 'produit contrefait', 'marchandise contrefaite', 'article contrefait', 'faux produit'],
    other: ['autre', 'autres', 'autre motif', 'divers'],
  },
  stopWords: ['le', 'la', 'les', 'l', 'un', 'une', 'de', 'du', 'des', 'd', 'au', 'aux', 'a', 'par', 'pour', 'sur', 'avec', 'et', 'ou', 'en', 'ce', 'cet', 'cette', 'est'],
};
