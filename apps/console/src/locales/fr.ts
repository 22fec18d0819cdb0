import type { en } from './en';

/**
 * French covers the login area only (spec sections 1 and 9): sign-in, the reset pages, the
 * language switcher and the public footer, plus the domain messages those pages can show.
 */
export const LOGIN_AREA_KEYS = [
  'common.back',
  'public.language',
  'public.version',
  'footer.label',
  'footer.about-us',
  'footer.contact',
  'footer.imprint',
  'footer.privacy',
  'footer.terms',
  'login.title',
  'login.subtitle',
  'login.email',
  'login.password',
  'login.submit',
  'login.forgot',
  'login.create-account',
  'reset.title',
  'reset.intro',
  'reset.submit',
  'reset.back',
  'reset.new-title',
  'reset.new-intro',
  'reset.new-password',
  'reset.confirm-password',
  'reset.save',
  'reset.done',
  'form.errors_one',
  'form.errors_other',
] as const satisfies readonly (keyof typeof en)[];

/** Domain messages the login area can show (validation of its fields and the reset answer;
 * API error toasts come from the domain catalogue, which exists in en and de). */
export const LOGIN_AREA_DOMAIN_KEYS = [
  'error.required',
  'error.email',
  'error.password',
  'error.password-uppercase',
  'error.password-lowercase',
  'error.password-number',
  'error.password-special-char',
  'error.password-minlength',
  'error.confirmation',
  'error.unknown',
  'message.forgot-password-sent',
] as const;

type LoginAreaKey = (typeof LOGIN_AREA_KEYS)[number] | (typeof LOGIN_AREA_DOMAIN_KEYS)[number];

export const fr: Record<LoginAreaKey, string> = {
  'common.back': 'Retour',
  'public.language': 'Langue',
  'public.version': 'Version {{version}}',
  'footer.label': 'Mentions légales et contact',
  'footer.about-us': 'À propos',
  'footer.contact': 'Contact',
  'footer.imprint': 'Mentions légales',
  'footer.privacy': 'Confidentialité',
  'footer.terms': "Conditions d'utilisation",
  'login.title': 'Connexion',
  'login.subtitle': 'Surveillez vos capteurs et appareils.',
  'login.email': 'E-mail',
  'login.password': 'Mot de passe',
  'login.submit': 'Se connecter',
  'login.forgot': 'Mot de passe oublié ?',
  'login.create-account': 'Créer un compte',
  'reset.title': 'Réinitialiser le mot de passe',
  'reset.intro':
    'Saisissez votre adresse e-mail, nous vous enverrons un lien pour définir un nouveau mot de passe.',
  'reset.submit': 'Envoyer le lien',
  'reset.back': 'Retour à la connexion',
  'reset.new-title': 'Définir un nouveau mot de passe',
  'reset.new-intro':
    'Au moins 10 caractères avec une majuscule, une minuscule, un chiffre et un caractère spécial.',
  'reset.new-password': 'Nouveau mot de passe',
  'reset.confirm-password': 'Répéter le nouveau mot de passe',
  'reset.save': 'Enregistrer le mot de passe',
  'reset.done': 'Votre mot de passe a été modifié.',
  'form.errors_one': '{{count}} erreur',
  'form.errors_other': '{{count}} erreurs',
  'error.required': 'Information requise. Veuillez la renseigner.',
  'error.email': 'Veuillez saisir une adresse e-mail valide.',
  'error.password': 'Veuillez saisir un mot de passe valide.',
  'error.password-uppercase': 'Le mot de passe doit contenir une majuscule.',
  'error.password-lowercase': 'Le mot de passe doit contenir une minuscule.',
  'error.password-number': 'Le mot de passe doit contenir un chiffre.',
  'error.password-special-char': 'Le mot de passe doit contenir un caractère spécial : !@#$%^&*(),.?":{}|<>',
  'error.password-minlength': 'Le mot de passe doit comporter au moins {{min}} caractères.',
  'error.confirmation': 'Les saisies ne correspondent pas.',
  'error.unknown': 'La saisie est invalide.',
  'message.forgot-password-sent':
    'Si un compte existe pour cette adresse e-mail, nous avons envoyé un lien pour réinitialiser le mot de passe.',
};
