import type { clientsEn } from './clients.en';

/** German strings of client administration and the external API (issue #27); spread into de.ts. */
export const clientsDe: Record<keyof typeof clientsEn, string> = {
  'settings.tab.api': 'API & Limits',
  'api-keys.title': 'API-Schlüssel',
  'api-keys.intro':
    'Schlüssel für die externe API. Senden Sie ihn als „Authorization: Bearer <Schlüssel>“; er erreicht nur, was seine Berechtigungen erlauben.',
  'api-keys.locked': 'Die externe API ist für Ihr Unternehmen nicht lizenziert.',
  'api-keys.name': 'Name',
  'api-keys.scopes': 'Berechtigungen',
  'api-keys.scope.devices:read': 'Geräte und Daten lesen',
  'api-keys.scope.devices:write': 'Geräte bearbeiten',
  'api-keys.scope.commands:send': 'Befehle senden',
  'api-keys.scope.rules:manage': 'Regeln verwalten',
  'api-keys.expires': 'Läuft ab (optional)',
  'api-keys.create': 'Schlüssel erstellen',
  'api-keys.shown-once': 'Kopieren Sie den Schlüssel jetzt. Er wird nur dieses eine Mal angezeigt.',
  'api-keys.copy': 'Schlüssel kopieren',
  'api-keys.empty': 'Noch keine API-Schlüssel.',
  'api-keys.revoke': 'Widerrufen',
  'api-keys.revoke-title': 'API-Schlüssel widerrufen',
  'api-keys.revoke-message':
    '„{{name}}“ widerrufen? Integrationen, die ihn nutzen, funktionieren sofort nicht mehr.',
  'api-keys.revoked': 'API-Schlüssel widerrufen.',
  'api-keys.revoked-badge': 'widerrufen',
  'api-keys.usage': '{{requests}} Anfragen, zuletzt {{time}}',
  'api-keys.never-used': 'nie verwendet',
  'api-keys.expires-at': 'läuft ab {{time}}',
  'limits.title': 'Limits',
  'limits.none': 'kein Limit',
  'limits.max_devices': 'Geräte',
  'limits.max_users': 'Benutzer',
  'limits.max_dashboards': 'Dashboards',
  'limits.max_rules_per_device': 'Regeln pro Gerät',
  'limits.max_uplinks_per_minute': 'Uplinks pro Minute',
  'limits.use': '{{used}} von {{limit}}',
  'support-log.title': 'Support-Zugriffe',
  'support-log.empty': 'Der Support hat nicht auf Ihr Konto zugegriffen.',
  'support-log.start': 'Der Support ({{name}}) hat am {{time}} von {{ip}} aus auf Ihr Konto zugegriffen',
  'support-log.end': 'Der Support ({{name}}) hat Ihr Konto am {{time}} verlassen',
  'menu.locked':
    'Für Ihr Unternehmen nicht lizenziert. Wenden Sie sich an den Support, um dieses Modul hinzuzufügen.',
};
