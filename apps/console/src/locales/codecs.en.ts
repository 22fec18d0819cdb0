/** English strings of codecs, virtual devices and the device import (issue 23), spread into en.ts. */
export const codecsEn = {
  'page.codecs': 'Codecs',
  'codecs.add': 'Add codec',
  'codecs.none': 'No codecs yet.',
  'codecs.name': 'Name',
  'codecs.saved': 'Codec saved.',
  'codecs.functions': 'Defines: {{list}}',
  'codecs.device-count_one': '{{count}} device',
  'codecs.device-count_other': '{{count}} devices',
  'codecs.delete-title': 'Delete codec',
  'codecs.delete-message':
    'Delete “{{name}}”? {{count}} device(s) will decode with their built-in driver again.',
  'codecs.test.decodeUplink': 'Decode uplink',
  'codecs.test.decodeDownlink': 'Decode downlink',
  'codecs.test.encodeDownlink': 'Encode downlink',
  'codecs.test.bytes': 'Bytes (hex or base64)',
  'codecs.test.input': 'Input (JSON), e.g. {"data": {...}, "command": "..."}',
  'codecs.test.input-invalid': 'The input is not valid JSON.',
  'codecs.test.run': 'Test',
  'codecs.test.encoded': 'Bytes {{bytes}} on fPort {{port}}',
  'codecs.test.error-at-line': 'Line {{line}}: {{error}}',
  'codecs.test.hint':
    'The test runs the source in the editor, saved or not, in the same sandbox as live uplinks.',
  'devices.field.codec': 'Codec',
  'devices.edit.no-codec': 'Built-in driver',
  'devices.edit.manage-codecs': 'Manage codecs',
  'devices.export-csv': 'Export CSV',
};
