import type { codecsEn } from './codecs.en';

/** German strings of codecs, virtual devices and the device import (issue 23), spread into de.ts. */
export const codecsDe: Record<keyof typeof codecsEn, string> = {
  'page.codecs': 'Codecs',
  'codecs.add': 'Codec hinzufügen',
  'codecs.none': 'Noch keine Codecs.',
  'codecs.name': 'Name',
  'codecs.saved': 'Codec gespeichert.',
  'codecs.functions': 'Definiert: {{list}}',
  'codecs.device-count_one': '{{count}} Gerät',
  'codecs.device-count_other': '{{count}} Geräte',
  'codecs.delete-title': 'Codec löschen',
  'codecs.delete-message':
    '„{{name}}“ löschen? {{count}} Gerät(e) dekodieren dann wieder mit ihrem eingebauten Treiber.',
  'codecs.test.decodeUplink': 'Uplink dekodieren',
  'codecs.test.decodeDownlink': 'Downlink dekodieren',
  'codecs.test.encodeDownlink': 'Downlink kodieren',
  'codecs.test.bytes': 'Bytes (hex oder base64)',
  'codecs.test.input': 'Eingabe (JSON), z. B. {"data": {...}, "command": "..."}',
  'codecs.test.input-invalid': 'Die Eingabe ist kein gültiges JSON.',
  'codecs.test.run': 'Testen',
  'codecs.test.encoded': 'Bytes {{bytes}} auf fPort {{port}}',
  'codecs.test.error-at-line': 'Zeile {{line}}: {{error}}',
  'codecs.test.hint':
    'Der Test führt den Quelltext im Editor aus, gespeichert oder nicht, in derselben Sandbox wie echte Uplinks.',
  'devices.field.codec': 'Codec',
  'devices.edit.no-codec': 'Eingebauter Treiber',
  'devices.edit.manage-codecs': 'Codecs verwalten',
  'devices.export-csv': 'CSV exportieren',
};
