/**
 * The API error catalogue (spec section 8). Every failure the API returns carries one of these codes;
 * the console translates `api.response-<code>` (built from the texts below, see src/i18n).
 *
 * HTTP status choices, so the whole catalogue follows one reading:
 * - not logged in, failed login, bad credentials: 401; invalid CSRF token: 419 (the Laravel-style
 *   "page expired" status the console's CSRF handling is built around);
 * - authenticated but not allowed (permission, blocked company, user without company, main user,
 *   another company's row, unlicensed module): 403;
 * - a named thing that does not exist: 404;
 * - a conflict with existing state (already registered, already assigned, still referenced): 409;
 * - input that fails validation: 422; unsupported content type: 415;
 * - a failure on our side (create/read/update/delete failed): 500; a device network or LNS that
 *   refused a downlink: 502. A 5xx answer never carries more than the catalogue text.
 * Meanings the spec names only as a range (groups, rules, virtual data, dashboards, company,
 * farming, parking) are assigned here in create/read/update/delete order and are ours from now on.
 * Codes 90001 and up are the project's own, outside every range the spec uses: refusals the spec
 * gives no code (64 stays for refusals about creating and managing users).
 */
export interface ErrorDefinition {
  readonly code: number;
  readonly name: string;
  readonly status: number;
  readonly en: string;
  readonly de: string;
}

export const ERROR_DEFINITIONS = [
  // General
  { code: 0, name: 'UNDEFINED', status: 500, en: 'Undefined error.', de: 'Undefinierter Fehler.' },
  { code: 400, name: 'BAD_REQUEST', status: 400, en: 'Bad request.', de: 'Fehlerhafte Anfrage.' },
  { code: 401, name: 'UNAUTHORIZED', status: 401, en: 'Unauthorized.', de: 'Nicht autorisiert.' },
  { code: 404, name: 'DATA_NOT_FOUND', status: 404, en: 'Data not found.', de: 'Daten nicht gefunden.' },
  { code: 422, name: 'INPUT_ERROR', status: 422, en: 'Input error.', de: 'Eingabefehler.' },
  {
    code: 500,
    name: 'INTERNAL_ERROR',
    status: 500,
    en: 'Internal error. Please contact support.',
    de: 'Interner Fehler. Bitte wenden Sie sich an den Support.',
  },
  {
    code: 41,
    name: 'SOMETHING_WENT_WRONG',
    status: 500,
    en: 'Something went wrong.',
    de: 'Etwas ist schiefgelaufen.',
  },

  // Authentication and users
  {
    code: 1,
    name: 'REGISTRATION_FAILED',
    status: 422,
    en: 'Registration failed.',
    de: 'Die Registrierung ist fehlgeschlagen.',
  },
  {
    code: 2,
    name: 'LOGIN_FAILED',
    status: 401,
    en: 'Login failed. Please check your username and password or contact support.',
    de: 'Die Anmeldung ist fehlgeschlagen. Bitte prüfen Sie Benutzername und Passwort oder wenden Sie sich an den Support.',
  },
  { code: 53, name: 'UNKNOWN_USER', status: 404, en: 'Unknown user.', de: 'Unbekannter Benutzer.' },
  { code: 62, name: 'USER_NOT_FOUND', status: 404, en: 'User not found.', de: 'Benutzer nicht gefunden.' },
  {
    code: 63,
    name: 'EMAIL_MISSING',
    status: 422,
    en: 'The email address is missing.',
    de: 'Die E-Mail-Adresse fehlt.',
  },
  {
    code: 64,
    name: 'NO_PERMISSION_TO_CREATE_USER',
    status: 403,
    en: 'You do not have permission to create users.',
    de: 'Sie haben keine Berechtigung, Benutzer anzulegen.',
  },
  {
    code: 65,
    name: 'USER_CREATE_FAILED',
    status: 500,
    en: 'The user could not be created.',
    de: 'Der Benutzer konnte nicht angelegt werden.',
  },
  {
    code: 73,
    name: 'EMAIL_ALREADY_REGISTERED',
    status: 409,
    en: 'This email address is already registered.',
    de: 'Diese E-Mail-Adresse ist bereits registriert.',
  },
  {
    code: 74,
    name: 'USER_WITHOUT_COMPANY',
    status: 403,
    en: 'This user does not belong to a company.',
    de: 'Dieser Benutzer gehört zu keinem Unternehmen.',
  },
  {
    code: 75,
    name: 'COMPANY_BLOCKED',
    status: 403,
    en: 'The company is blocked or has been deleted.',
    de: 'Das Unternehmen ist gesperrt oder wurde gelöscht.',
  },
  {
    code: 76,
    name: 'NOT_LOGGED_IN',
    status: 401,
    en: 'You are not logged in.',
    de: 'Sie sind nicht angemeldet.',
  },
  {
    code: 77,
    name: 'INVALID_CSRF_TOKEN',
    status: 419,
    en: 'Your session has expired (invalid CSRF token). Please log in again.',
    de: 'Ihre Sitzung ist abgelaufen (ungültiges CSRF-Token). Bitte melden Sie sich erneut an.',
  },
  {
    code: 71,
    name: 'CREDENTIAL_PARAMETER_MISSING',
    status: 422,
    en: 'A credential parameter is missing.',
    de: 'Ein Parameter der Zugangsdaten fehlt.',
  },
  {
    code: 31,
    name: 'EMAIL_TOKEN_INVALID',
    status: 422,
    en: 'The security token from the email is invalid.',
    de: 'Das Sicherheitstoken aus der E-Mail ist ungültig.',
  },
  {
    code: 67,
    name: 'EMAIL_TOKEN_EXPIRED',
    status: 422,
    en: 'The security token from the email has expired.',
    de: 'Das Sicherheitstoken aus der E-Mail ist abgelaufen.',
  },
  {
    code: 68,
    name: 'EMAIL_TOKEN_MISSING',
    status: 422,
    en: 'The security token from the email is missing.',
    de: 'Das Sicherheitstoken aus der E-Mail fehlt.',
  },
  {
    code: 69,
    name: 'EMAIL_TOKEN_SEND_FAILED',
    status: 500,
    en: 'The email with the security token could not be sent.',
    de: 'Die E-Mail mit dem Sicherheitstoken konnte nicht gesendet werden.',
  },
  {
    code: 54,
    name: 'MAIN_USER_CANNOT_BE_OVERRIDDEN',
    status: 403,
    en: 'The main user cannot be overridden.',
    de: 'Der Hauptbenutzer kann nicht überschrieben werden.',
  },
  {
    code: 50100,
    name: 'USER_READ_FAILED',
    status: 500,
    en: 'The user could not be read.',
    de: 'Der Benutzer konnte nicht gelesen werden.',
  },
  {
    code: 50101,
    name: 'USER_UPDATE_FAILED',
    status: 500,
    en: 'The user could not be updated.',
    de: 'Der Benutzer konnte nicht aktualisiert werden.',
  },
  {
    code: 50102,
    name: 'USER_DELETE_FAILED',
    status: 500,
    en: 'The user could not be deleted.',
    de: 'Der Benutzer konnte nicht gelöscht werden.',
  },
  // The fourth user code: deleting oneself is the one delete failure the spec names (section 6).
  {
    code: 50103,
    name: 'USER_CANNOT_DELETE_SELF',
    status: 403,
    en: 'You cannot delete yourself.',
    de: 'Sie können sich nicht selbst löschen.',
  },

  // Devices
  {
    code: 9,
    name: 'DEVICE_CREATE_FAILED',
    status: 500,
    en: 'The device could not be created.',
    de: 'Das Gerät konnte nicht angelegt werden.',
  },
  { code: 10, name: 'DEVICE_NOT_FOUND', status: 404, en: 'Device not found.', de: 'Gerät nicht gefunden.' },
  {
    code: 19,
    name: 'DEVICE_NOT_ASSIGNED',
    status: 409,
    en: 'The device is not assigned.',
    de: 'Das Gerät ist nicht zugeordnet.',
  },
  {
    code: 20,
    name: 'DEVICE_ALREADY_ASSIGNED',
    status: 409,
    en: 'The device is already assigned.',
    de: 'Das Gerät ist bereits zugeordnet.',
  },
  {
    code: 26,
    name: 'DEVICE_STATUS_NOT_FOUND',
    status: 404,
    en: 'Device status not found.',
    de: 'Gerätestatus nicht gefunden.',
  },
  {
    code: 33,
    name: 'DEVICE_ASSIGN_COMPANY_FAILED',
    status: 500,
    en: 'The device could not be assigned to the company.',
    de: 'Das Gerät konnte dem Unternehmen nicht zugeordnet werden.',
  },
  {
    code: 42,
    name: 'DEVICE_UPDATE_FAILED',
    status: 500,
    en: 'The device could not be updated.',
    de: 'Das Gerät konnte nicht aktualisiert werden.',
  },
  {
    code: 44,
    name: 'DEVICE_LIMIT_FAILED',
    status: 422,
    en: 'The device limit was exceeded.',
    de: 'Das Gerätelimit wurde überschritten.',
  },
  {
    code: 58,
    name: 'DEVICE_DELETE_FAILED',
    status: 500,
    en: 'The device could not be deleted.',
    de: 'Das Gerät konnte nicht gelöscht werden.',
  },
  {
    code: 61,
    name: 'DEVICE_DATA_READ_FAILED',
    status: 500,
    en: 'The device data could not be read.',
    de: 'Die Gerätedaten konnten nicht gelesen werden.',
  },
  {
    code: 10001,
    name: 'DEVICE_DATA_NOT_FOUND',
    status: 404,
    en: 'No data found.',
    de: 'Keine Daten gefunden.',
  },
  {
    code: 10002,
    name: 'PERIOD_TYPE_UNDEFINED',
    status: 422,
    en: 'The period type is not defined.',
    de: 'Der Zeitraumtyp ist nicht definiert.',
  },
  { code: 37, name: 'DRIVER_NOT_FOUND', status: 404, en: 'Driver not found.', de: 'Treiber nicht gefunden.' },
  {
    code: 38,
    name: 'DRIVER_INVALID',
    status: 422,
    en: 'The driver is invalid.',
    de: 'Der Treiber ist ungültig.',
  },
  {
    code: 39,
    name: 'DEVICE_CONFIG_NOT_FOUND',
    status: 404,
    en: 'Device configuration not found.',
    de: 'Gerätekonfiguration nicht gefunden.',
  },
  {
    code: 40,
    name: 'DEVICE_CONFIG_INVALID',
    status: 422,
    en: 'The device configuration is invalid.',
    de: 'Die Gerätekonfiguration ist ungültig.',
  },
  {
    code: 70,
    name: 'SENSOR_UPDATE_FAILED',
    status: 500,
    en: 'The sensor could not be updated.',
    de: 'Der Sensor konnte nicht aktualisiert werden.',
  },
  {
    code: 92,
    name: 'DOWNLINK_COMMAND_UNKNOWN',
    status: 422,
    en: 'Unknown downlink command.',
    de: 'Unbekannter Downlink-Befehl.',
  },
  {
    code: 93,
    name: 'DOWNLINK_NOT_SUPPORTED',
    status: 422,
    en: 'The device does not support this downlink.',
    de: 'Das Gerät unterstützt diesen Downlink nicht.',
  },
  {
    code: 94,
    name: 'DOWNLINK_PARAMETER_INVALID',
    status: 422,
    en: 'A downlink parameter is invalid.',
    de: 'Ein Downlink-Parameter ist ungültig.',
  },
  {
    code: 95,
    name: 'DOWNLINK_SEND_FAILED',
    status: 502,
    en: 'The downlink could not be sent.',
    de: 'Der Downlink konnte nicht gesendet werden.',
  },
  {
    code: 50104,
    name: 'SIM_INFO_FAILED',
    status: 502,
    en: 'The SIM information could not be retrieved.',
    de: 'Die SIM-Informationen konnten nicht abgerufen werden.',
  },
  {
    code: 50107,
    name: 'DEVICE_IMPORT_FAILED',
    status: 422,
    en: 'The import failed.',
    de: 'Der Import ist fehlgeschlagen.',
  },

  // Groups
  {
    code: 45,
    name: 'GROUP_CREATE_FAILED',
    status: 500,
    en: 'The group could not be created.',
    de: 'Die Gruppe konnte nicht angelegt werden.',
  },
  { code: 46, name: 'GROUP_NOT_FOUND', status: 404, en: 'Group not found.', de: 'Gruppe nicht gefunden.' },
  {
    code: 47,
    name: 'GROUP_UPDATE_FAILED',
    status: 500,
    en: 'The group could not be updated.',
    de: 'Die Gruppe konnte nicht aktualisiert werden.',
  },
  {
    code: 48,
    name: 'GROUP_DELETE_FAILED',
    status: 500,
    en: 'The group could not be deleted.',
    de: 'Die Gruppe konnte nicht gelöscht werden.',
  },
  {
    code: 49,
    name: 'GROUP_NAME_EXISTS',
    status: 409,
    en: 'A group with this name already exists.',
    de: 'Eine Gruppe mit diesem Namen existiert bereits.',
  },
  {
    code: 51,
    name: 'GROUP_ASSIGN_DEVICES_FAILED',
    status: 422,
    en: 'The devices could not be assigned to the group.',
    de: 'Die Geräte konnten der Gruppe nicht zugeordnet werden.',
  },

  // Rules
  { code: 50, name: 'RULE_NOT_FOUND', status: 404, en: 'Rule not found.', de: 'Regel nicht gefunden.' },
  { code: 78, name: 'RULE_INVALID', status: 422, en: 'The rule is invalid.', de: 'Die Regel ist ungültig.' },
  {
    code: 81,
    name: 'RULE_CREATE_FAILED',
    status: 500,
    en: 'The rule could not be created.',
    de: 'Die Regel konnte nicht angelegt werden.',
  },
  {
    code: 82,
    name: 'RULE_UPDATE_FAILED',
    status: 500,
    en: 'The rule could not be updated.',
    de: 'Die Regel konnte nicht aktualisiert werden.',
  },
  {
    code: 83,
    name: 'RULE_DELETE_FAILED',
    status: 500,
    en: 'The rule could not be deleted.',
    de: 'Die Regel konnte nicht gelöscht werden.',
  },

  // Virtual data fields
  {
    code: 84,
    name: 'VIRTUAL_FIELD_NOT_FOUND',
    status: 404,
    en: 'Virtual data field not found.',
    de: 'Virtuelles Datenfeld nicht gefunden.',
  },
  {
    code: 85,
    name: 'VIRTUAL_FIELD_CREATE_FAILED',
    status: 500,
    en: 'The virtual data field could not be created.',
    de: 'Das virtuelle Datenfeld konnte nicht angelegt werden.',
  },
  {
    code: 86,
    name: 'VIRTUAL_FIELD_UPDATE_FAILED',
    status: 500,
    en: 'The virtual data field could not be updated.',
    de: 'Das virtuelle Datenfeld konnte nicht aktualisiert werden.',
  },
  {
    code: 87,
    name: 'VIRTUAL_FIELD_DELETE_FAILED',
    status: 500,
    en: 'The virtual data field could not be deleted.',
    de: 'Das virtuelle Datenfeld konnte nicht gelöscht werden.',
  },
  {
    code: 88,
    name: 'VIRTUAL_FIELD_NAME_INVALID',
    status: 422,
    en: 'The name of the virtual data field is invalid.',
    de: 'Der Name des virtuellen Datenfelds ist ungültig.',
  },
  {
    code: 89,
    name: 'VIRTUAL_FIELD_FORMULA_INVALID',
    status: 422,
    en: 'The formula is invalid.',
    de: 'Die Formel ist ungültig.',
  },
  {
    code: 90,
    name: 'VIRTUAL_FIELD_FUNCTION_UNKNOWN',
    status: 422,
    en: 'Unknown aggregation function.',
    de: 'Unbekannte Aggregationsfunktion.',
  },
  {
    code: 91,
    name: 'VIRTUAL_FIELD_NAME_EXISTS',
    status: 409,
    en: 'A virtual data field with this name already exists.',
    de: 'Ein virtuelles Datenfeld mit diesem Namen existiert bereits.',
  },

  // Dashboards
  {
    code: 96,
    name: 'DASHBOARD_NOT_FOUND',
    status: 404,
    en: 'Dashboard not found.',
    de: 'Dashboard nicht gefunden.',
  },
  {
    code: 97,
    name: 'DASHBOARD_CREATE_FAILED',
    status: 500,
    en: 'The dashboard could not be created.',
    de: 'Das Dashboard konnte nicht angelegt werden.',
  },
  {
    code: 98,
    name: 'DASHBOARD_UPDATE_FAILED',
    status: 500,
    en: 'The dashboard could not be updated.',
    de: 'Das Dashboard konnte nicht aktualisiert werden.',
  },
  {
    code: 99,
    name: 'DASHBOARD_DELETE_FAILED',
    status: 500,
    en: 'The dashboard could not be deleted.',
    de: 'Das Dashboard konnte nicht gelöscht werden.',
  },

  // Company
  {
    code: 4,
    name: 'COMPANY_NOT_FOUND',
    status: 404,
    en: 'Company not found.',
    de: 'Unternehmen nicht gefunden.',
  },
  {
    code: 6,
    name: 'COMPANY_CREATE_FAILED',
    status: 500,
    en: 'The company could not be created.',
    de: 'Das Unternehmen konnte nicht angelegt werden.',
  },
  {
    code: 7,
    name: 'COMPANY_UPDATE_FAILED',
    status: 500,
    en: 'The company could not be updated.',
    de: 'Das Unternehmen konnte nicht aktualisiert werden.',
  },
  {
    code: 27,
    name: 'MODULE_NOT_LICENSED',
    status: 403,
    en: 'This module is not licensed for your company.',
    de: 'Dieses Modul ist für Ihr Unternehmen nicht lizenziert.',
  },
  { code: 28, name: 'MODULE_NOT_FOUND', status: 404, en: 'Module not found.', de: 'Modul nicht gefunden.' },
  {
    code: 29,
    name: 'COMPANY_DELETE_FAILED',
    status: 500,
    en: 'The company could not be deleted.',
    de: 'Das Unternehmen konnte nicht gelöscht werden.',
  },
  {
    code: 72,
    name: 'IMPERSONATION_NOT_ALLOWED',
    status: 403,
    en: 'Acting as this client is not allowed.',
    de: 'Das Handeln als dieser Kunde ist nicht erlaubt.',
  },
  {
    code: 109,
    name: 'ADDRESS_NOT_FOUND',
    status: 422,
    en: 'Address not found.',
    de: 'Adresse nicht gefunden.',
  },

  // Farming: fields 20001.., soils 20021.., plants 20041.., parcels 20140..20146
  { code: 20001, name: 'FIELD_NOT_FOUND', status: 404, en: 'Field not found.', de: 'Feld nicht gefunden.' },
  {
    code: 20002,
    name: 'FIELD_CREATE_FAILED',
    status: 500,
    en: 'The field could not be created.',
    de: 'Das Feld konnte nicht angelegt werden.',
  },
  {
    code: 20003,
    name: 'FIELD_UPDATE_FAILED',
    status: 500,
    en: 'The field could not be updated.',
    de: 'Das Feld konnte nicht aktualisiert werden.',
  },
  {
    code: 20004,
    name: 'FIELD_DELETE_FAILED',
    status: 500,
    en: 'The field could not be deleted.',
    de: 'Das Feld konnte nicht gelöscht werden.',
  },
  {
    code: 20005,
    name: 'FIELD_ASSIGN_DEVICES_FAILED',
    status: 422,
    en: 'The devices could not be assigned to the field.',
    de: 'Die Geräte konnten dem Feld nicht zugeordnet werden.',
  },
  {
    code: 20006,
    name: 'FIELD_ASSIGN_PARCELS_FAILED',
    status: 422,
    en: 'The parcels could not be assigned to the field.',
    de: 'Die Flurstücke konnten dem Feld nicht zugeordnet werden.',
  },
  {
    code: 20007,
    name: 'FIELD_OTHER_COMPANY',
    status: 403,
    en: 'This field does not belong to your company.',
    de: 'Dieses Feld gehört nicht zu Ihrem Unternehmen.',
  },
  {
    code: 20008,
    name: 'FIELD_NO_DEVICES',
    status: 422,
    en: 'There are no devices, so saving is not possible.',
    de: 'Es sind keine Geräte vorhanden, daher ist Speichern nicht möglich.',
  },
  {
    code: 20009,
    name: 'FIELD_NO_PERMISSION',
    status: 403,
    en: 'You do not have permission to manage fields.',
    de: 'Sie haben keine Berechtigung, Felder zu verwalten.',
  },
  {
    code: 20010,
    name: 'FIELD_BOUNDARY_INVALID',
    status: 422,
    en: 'The boundary must be a GeoJSON polygon or multipolygon in WGS84.',
    de: 'Die Grenze muss ein GeoJSON-Polygon oder -Multipolygon in WGS84 sein.',
  },
  {
    code: 20011,
    name: 'FIELD_DEVICE_OTHER_COMPANY',
    status: 403,
    en: 'The device cannot be assigned: it does not belong to your company.',
    de: 'Das Gerät kann nicht zugeordnet werden: Es gehört nicht zu Ihrem Unternehmen.',
  },
  { code: 20021, name: 'SOIL_NOT_FOUND', status: 404, en: 'Soil not found.', de: 'Boden nicht gefunden.' },
  {
    code: 20022,
    name: 'SOIL_INVALID',
    status: 422,
    en: 'The soil is invalid.',
    de: 'Der Boden ist ungültig.',
  },
  {
    code: 20023,
    name: 'SOIL_CODE_TAKEN',
    status: 409,
    en: 'A soil with this code already exists.',
    de: 'Ein Boden mit diesem Kürzel existiert bereits.',
  },
  {
    code: 20041,
    name: 'PLANT_NOT_FOUND',
    status: 404,
    en: 'Plant not found.',
    de: 'Pflanze nicht gefunden.',
  },
  {
    code: 20042,
    name: 'PLANT_INVALID',
    status: 422,
    en: 'The plant is invalid.',
    de: 'Die Pflanze ist ungültig.',
  },
  {
    code: 20043,
    name: 'PLANT_CODE_TAKEN',
    status: 409,
    en: 'A plant with this code already exists.',
    de: 'Eine Pflanze mit diesem Kürzel existiert bereits.',
  },
  {
    code: 20061,
    name: 'TASK_NOT_FOUND',
    status: 404,
    en: 'Task not found.',
    de: 'Aufgabe nicht gefunden.',
  },
  {
    code: 20062,
    name: 'TASK_INVALID',
    status: 422,
    en: 'The task is invalid.',
    de: 'Die Aufgabe ist ungültig.',
  },
  {
    code: 20063,
    name: 'TASK_ASSIGNEE_INVALID',
    status: 422,
    en: 'The assignee is not a user of your company.',
    de: 'Die zuständige Person ist kein Benutzer Ihres Unternehmens.',
  },
  {
    code: 20064,
    name: 'TASK_FIELD_INVALID',
    status: 422,
    en: "A field of the task is not one of your company's fields.",
    de: 'Ein Feld der Aufgabe gehört nicht zu Ihrem Unternehmen.',
  },
  {
    code: 20101,
    name: 'PARCEL_REGISTRATION_INVALID',
    status: 422,
    en: 'For German companies the registration number must be a 16-character FLIK (e.g. DEBBLI0260100301).',
    de: 'Für deutsche Unternehmen muss die Registriernummer ein 16-stelliger FLIK sein (z. B. DEBBLI0260100301).',
  },
  {
    code: 20102,
    name: 'PARCEL_NO_PERMISSION',
    status: 403,
    en: 'You do not have permission to manage parcels.',
    de: 'Sie haben keine Berechtigung, Flurstücke zu verwalten.',
  },
  {
    code: 20140,
    name: 'PARCEL_NOT_FOUND',
    status: 404,
    en: 'Parcel not found.',
    de: 'Flurstück nicht gefunden.',
  },
  {
    code: 20141,
    name: 'PARCEL_CREATE_FAILED',
    status: 500,
    en: 'The parcel could not be created.',
    de: 'Das Flurstück konnte nicht angelegt werden.',
  },
  {
    code: 20142,
    name: 'PARCEL_UPDATE_FAILED',
    status: 500,
    en: 'The parcel could not be updated.',
    de: 'Das Flurstück konnte nicht aktualisiert werden.',
  },
  {
    code: 20143,
    name: 'PARCEL_DELETE_FAILED',
    status: 500,
    en: 'The parcel could not be deleted.',
    de: 'Das Flurstück konnte nicht gelöscht werden.',
  },
  {
    code: 20144,
    name: 'PARCEL_HAS_ASSIGNED_FIELDS',
    status: 409,
    en: 'The parcel is connected to a field and cannot be deleted.',
    de: 'Das Flurstück ist einem Feld zugeordnet und kann nicht gelöscht werden.',
  },
  {
    code: 20145,
    name: 'PARCEL_NOT_AVAILABLE',
    status: 409,
    en: 'The parcel is not available for reassignment.',
    de: 'Das Flurstück ist für eine Neuzuordnung nicht verfügbar.',
  },
  {
    code: 20146,
    name: 'PARCEL_OTHER_COMPANY',
    status: 403,
    en: 'The parcel cannot be assigned to another company.',
    de: 'Das Flurstück kann keinem anderen Unternehmen zugeordnet werden.',
  },

  // Parking
  {
    code: 40001,
    name: 'PARKING_AREA_NOT_FOUND',
    status: 404,
    en: 'Car park not found.',
    de: 'Parkplatz nicht gefunden.',
  },
  {
    code: 40002,
    name: 'PARKING_AREA_CREATE_FAILED',
    status: 500,
    en: 'The car park cannot be saved.',
    de: 'Der Parkplatz kann nicht gespeichert werden.',
  },
  {
    code: 40003,
    name: 'PARKING_AREA_UPDATE_FAILED',
    status: 500,
    en: 'The car park could not be updated.',
    de: 'Der Parkplatz konnte nicht aktualisiert werden.',
  },
  {
    code: 40004,
    name: 'PARKING_AREA_OTHER_COMPANY',
    status: 403,
    en: 'This does not belong to your company.',
    de: 'Dies gehört nicht zu Ihrem Unternehmen.',
  },
  {
    code: 40005,
    name: 'PARKING_AREA_DELETE_FAILED',
    status: 500,
    en: 'The car park could not be deleted.',
    de: 'Der Parkplatz konnte nicht gelöscht werden.',
  },
  {
    code: 40006,
    name: 'PARKING_AREA_TYPE_INVALID',
    status: 422,
    en: 'The car park type is invalid.',
    de: 'Der Parkplatztyp ist ungültig.',
  },
  {
    code: 40007,
    name: 'PARKING_AREA_CAPACITY_INVALID',
    status: 422,
    en: 'The capacity is invalid.',
    de: 'Die Kapazität ist ungültig.',
  },
  {
    code: 40008,
    name: 'PARKING_AREA_ICON_INVALID',
    status: 422,
    en: 'The icon is invalid.',
    de: 'Das Symbol ist ungültig.',
  },
  {
    code: 40009,
    name: 'PARKING_AREA_MAX_TIME_INVALID',
    status: 422,
    en: 'The maximum parking time is invalid.',
    de: 'Die maximale Parkdauer ist ungültig.',
  },
  {
    code: 40010,
    name: 'PARKING_AREA_SIZE_INVALID',
    status: 422,
    en: 'The area size is invalid.',
    de: 'Die Flächengröße ist ungültig.',
  },
  {
    code: 40011,
    name: 'PARKING_SENSOR_NOT_FOUND',
    status: 404,
    en: 'Parking sensor not found.',
    de: 'Parksensor nicht gefunden.',
  },
  {
    code: 40012,
    name: 'PARKING_SENSOR_ALREADY_ASSIGNED',
    status: 409,
    en: 'The parking sensor is already assigned to a car park.',
    de: 'Der Parksensor ist bereits einem Parkplatz zugeordnet.',
  },
  {
    code: 40013,
    name: 'PARKING_SENSOR_OTHER_COMPANY',
    status: 403,
    en: 'The parking sensor does not belong to your company.',
    de: 'Der Parksensor gehört nicht zu Ihrem Unternehmen.',
  },
  {
    code: 40014,
    name: 'NOT_A_PARKING_SENSOR',
    status: 422,
    en: 'The device is not a parking sensor.',
    de: 'Das Gerät ist kein Parksensor.',
  },

  // Water associations and transport
  {
    code: 60011,
    name: 'WATER_ASSOCIATION_LIST_FAILED',
    status: 500,
    en: 'The water associations could not be listed.',
    de: 'Die Wasserverbände konnten nicht aufgelistet werden.',
  },
  {
    code: 50109,
    name: 'UNSUPPORTED_CONTENT_TYPE',
    status: 415,
    en: 'Unsupported content type.',
    de: 'Nicht unterstützter Inhaltstyp.',
  },

  // The project's own codes (90001 and up; spec section 8 uses none of them): one code per refusal
  // that the spec leaves without a code of its own, so a 403 names what was refused instead of
  // borrowing 64 ("no permission to create users"). All 403.
  {
    code: 90001,
    name: 'NO_PERMISSION_TO_EDIT_DEVICES',
    status: 403,
    en: 'You do not have permission to edit devices.',
    de: 'Sie haben keine Berechtigung, Geräte zu bearbeiten.',
  },
  {
    code: 90002,
    name: 'NO_PERMISSION_TO_REASSIGN_DEVICES',
    status: 403,
    en: 'You do not have permission to assign devices to another company.',
    de: 'Sie haben keine Berechtigung, Geräte einem anderen Unternehmen zuzuordnen.',
  },
  {
    code: 90003,
    name: 'NO_PERMISSION_TO_SEND_COMMANDS',
    status: 403,
    en: 'You do not have permission to send commands to devices.',
    de: 'Sie haben keine Berechtigung, Befehle an Geräte zu senden.',
  },
  {
    code: 90004,
    name: 'NO_PERMISSION_TO_MANAGE_RULES',
    status: 403,
    en: 'You do not have permission to manage rules, sensor checks or virtual data fields.',
    de: 'Sie haben keine Berechtigung, Regeln, Sensorprüfungen oder virtuelle Datenfelder zu verwalten.',
  },
  {
    code: 90005,
    name: 'NO_PERMISSION_TO_MANAGE_GROUPS',
    status: 403,
    en: 'You do not have permission to manage groups.',
    de: 'Sie haben keine Berechtigung, Gruppen zu verwalten.',
  },
  {
    code: 90006,
    name: 'NO_PERMISSION_TO_MANAGE_DASHBOARDS',
    status: 403,
    en: 'You do not have permission to manage dashboards.',
    de: 'Sie haben keine Berechtigung, Dashboards zu verwalten.',
  },
  {
    code: 90007,
    name: 'NO_PERMISSION_TO_MANAGE_INTEGRATIONS',
    status: 403,
    en: 'You do not have permission to manage integrations.',
    de: 'Sie haben keine Berechtigung, Integrationen zu verwalten.',
  },
  {
    code: 90008,
    name: 'NO_PERMISSION_TO_EDIT_COMPANY',
    status: 403,
    en: 'You do not have permission to edit the company.',
    de: 'Sie haben keine Berechtigung, das Unternehmen zu bearbeiten.',
  },
  {
    code: 90009,
    name: 'NO_PERMISSION_TO_VIEW_OUTBOX',
    status: 403,
    en: 'You do not have permission to view sent messages.',
    de: 'Sie haben keine Berechtigung, versendete Nachrichten einzusehen.',
  },

  // Water associations (issue #26): 90050 to 90069.
  {
    code: 90050,
    name: 'NO_PERMISSION_TO_MANAGE_WATER_ASSOCIATION',
    status: 403,
    en: 'Only the water association and its admins may do this.',
    de: 'Nur der Wasserverband und seine Administratoren dürfen das.',
  },
  {
    code: 90051,
    name: 'WATER_ASSOCIATION_NOT_FOUND',
    status: 404,
    en: 'Water association not found.',
    de: 'Wasserverband nicht gefunden.',
  },
  {
    code: 90052,
    name: 'WATER_MEMBER_NOT_FOUND',
    status: 404,
    en: 'The company is not a member of this water association.',
    de: 'Das Unternehmen ist kein Mitglied dieses Wasserverbands.',
  },
  {
    code: 90053,
    name: 'WATER_MEMBERSHIP_REQUEST_NOT_FOUND',
    status: 404,
    en: 'There is no open membership request of this company.',
    de: 'Von diesem Unternehmen liegt kein offener Mitgliedsantrag vor.',
  },
  {
    code: 90054,
    name: 'WATER_MEMBERSHIP_EXISTS',
    status: 409,
    en: 'The company is already a member or has already asked to join.',
    de: 'Das Unternehmen ist bereits Mitglied oder hat die Aufnahme schon beantragt.',
  },
  {
    code: 90055,
    name: 'SHARED_DEVICE_NOT_FOUND',
    status: 404,
    en: 'The device is not shared with this water association.',
    de: 'Das Gerät ist nicht für diesen Wasserverband freigegeben.',
  },
  {
    code: 90056,
    name: 'NO_PERMISSION_TO_SHARE_DEVICES',
    status: 403,
    en: 'You do not have permission to share devices with a water association.',
    de: 'Sie haben keine Berechtigung, Geräte für einen Wasserverband freizugeben.',
  },
  // Client administration and the external API (issue #27): 90030–90049.
  {
    code: 90030,
    name: 'API_KEY_NOT_ALLOWED_HERE',
    status: 403,
    en: 'This route cannot be used with an API key. Sign in instead.',
    de: 'Diese Funktion kann nicht mit einem API-Schlüssel genutzt werden. Bitte melden Sie sich an.',
  },
  {
    code: 90031,
    name: 'API_KEY_SCOPE_MISSING',
    status: 403,
    en: 'The API key does not have the scope this route needs.',
    de: 'Dem API-Schlüssel fehlt die Berechtigung, die diese Funktion benötigt.',
  },
  {
    code: 90032,
    name: 'API_KEY_INVALID',
    status: 401,
    en: 'The API key is unknown, expired or revoked.',
    de: 'Der API-Schlüssel ist unbekannt, abgelaufen oder widerrufen.',
  },
  {
    code: 90033,
    name: 'API_KEY_RATE_LIMITED',
    status: 429,
    en: 'Too many requests with this API key. Please wait before trying again.',
    de: 'Zu viele Anfragen mit diesem API-Schlüssel. Bitte warten Sie, bevor Sie es erneut versuchen.',
  },
  {
    code: 90034,
    name: 'API_KEY_NOT_FOUND',
    status: 404,
    en: 'API key not found.',
    de: 'API-Schlüssel nicht gefunden.',
  },
  {
    code: 90035,
    name: 'NO_PERMISSION_TO_MANAGE_API_KEYS',
    status: 403,
    en: 'You do not have permission to manage API keys.',
    de: 'Sie haben keine Berechtigung, API-Schlüssel zu verwalten.',
  },
  {
    code: 90036,
    name: 'API_KEY_EXPIRY_IN_PAST',
    status: 422,
    en: 'The expiry date of an API key must lie in the future.',
    de: 'Das Ablaufdatum eines API-Schlüssels muss in der Zukunft liegen.',
  },
  {
    code: 90037,
    name: 'LOGO_TOO_LARGE',
    status: 422,
    en: 'The logo is too large (at most 64 KB).',
    de: 'Das Logo ist zu groß (höchstens 64 KB).',
  },
  {
    code: 90038,
    name: 'NO_PERMISSION_TO_VIEW_IMPERSONATIONS',
    status: 403,
    en: 'You do not have permission to see when support accessed the account.',
    de: 'Sie haben keine Berechtigung einzusehen, wann der Support auf das Konto zugegriffen hat.',
  },
  // Limits per client (issue #27): what was reached; details name the limit and the current use.
  {
    code: 90040,
    name: 'DEVICE_LIMIT_REACHED',
    status: 409,
    en: 'Your company has reached its maximum number of devices.',
    de: 'Ihr Unternehmen hat die maximale Anzahl an Geräten erreicht.',
  },
  {
    code: 90041,
    name: 'USER_LIMIT_REACHED',
    status: 409,
    en: 'Your company has reached its maximum number of users.',
    de: 'Ihr Unternehmen hat die maximale Anzahl an Benutzern erreicht.',
  },
  {
    code: 90042,
    name: 'DASHBOARD_LIMIT_REACHED',
    status: 409,
    en: 'Your company has reached its maximum number of dashboards.',
    de: 'Ihr Unternehmen hat die maximale Anzahl an Dashboards erreicht.',
  },
  {
    code: 90043,
    name: 'RULE_LIMIT_REACHED',
    status: 409,
    en: 'This device has reached the maximum number of rules.',
    de: 'Dieses Gerät hat die maximale Anzahl an Regeln erreicht.',
  },
  // Parking (issue #25): 90070..90079
  {
    code: 90070,
    name: 'NO_PERMISSION_TO_MANAGE_PARKING',
    status: 403,
    en: 'You do not have permission to manage car parks.',
    de: 'Sie haben keine Berechtigung, Parkplätze zu verwalten.',
  },
  // Codecs and virtual devices (issue 23): 90010-90029.
  {
    code: 90010,
    name: 'NO_PERMISSION_TO_MANAGE_CODECS',
    status: 403,
    en: 'You do not have permission to manage codecs.',
    de: 'Sie haben keine Berechtigung, Codecs zu verwalten.',
  },
  { code: 90011, name: 'CODEC_NOT_FOUND', status: 404, en: 'Codec not found.', de: 'Codec nicht gefunden.' },
  {
    code: 90012,
    name: 'CODEC_DOES_NOT_LOAD',
    status: 422,
    en: 'The codec does not load.',
    de: 'Der Codec lässt sich nicht laden.',
  },
  {
    code: 90013,
    name: 'CODEC_TOO_LARGE',
    status: 422,
    en: 'The codec is too large.',
    de: 'Der Codec ist zu groß.',
  },
  {
    code: 90014,
    name: 'CODEC_SAVE_FAILED',
    status: 500,
    en: 'The codec could not be saved.',
    de: 'Der Codec konnte nicht gespeichert werden.',
  },
  {
    code: 90015,
    name: 'CODEC_DELETE_FAILED',
    status: 500,
    en: 'The codec could not be deleted.',
    de: 'Der Codec konnte nicht gelöscht werden.',
  },
  {
    code: 90016,
    name: 'NO_PERMISSION_TO_ADD_VIRTUAL_DEVICES',
    status: 403,
    en: 'Only administrators may add virtual devices.',
    de: 'Nur Administratoren dürfen virtuelle Geräte hinzufügen.',
  },
  {
    code: 90017,
    name: 'VIRTUAL_DEVICE_INPUT_UNKNOWN',
    status: 422,
    en: 'A formula names a device or data field that is not one of yours.',
    de: 'Eine Formel nennt ein Gerät oder Datenfeld, das nicht zu Ihrem Unternehmen gehört.',
  },
  {
    code: 90018,
    name: 'VIRTUAL_DEVICE_CREATE_FAILED',
    status: 500,
    en: 'The virtual device could not be created.',
    de: 'Das virtuelle Gerät konnte nicht angelegt werden.',
  },
  // Issue #28: codecs that keep running past their budget (90100-90109).
  {
    code: 90100,
    name: 'CODEC_SUSPENDED',
    status: 409,
    en: 'The codec is suspended: it ran past its time budget again and again. Its devices’ uplinks are kept undecoded until the codec is saved again.',
    de: 'Der Codec ist ausgesetzt: Er hat sein Zeitbudget wiederholt überschritten. Die Uplinks seiner Geräte werden undekodiert aufbewahrt, bis der Codec erneut gespeichert wird.',
  },
  // Water associations, continued (issue #26): 90057 to 90069.
  {
    code: 90057,
    name: 'SHARED_DEVICE_READ_ONLY',
    status: 403,
    en: 'The device is shared read-only: the water association cannot switch it.',
    de: 'Das Gerät ist nur zum Lesen freigegeben: Der Wasserverband kann es nicht schalten.',
  },
  {
    code: 90058,
    name: 'WATER_COMMAND_NOT_ALLOWED',
    status: 403,
    en: 'Through a water association only valves and pumps can be switched.',
    de: 'Über einen Wasserverband lassen sich nur Ventile und Pumpen schalten.',
  },
  // Client administration, remaining parts (issue #27): 90044-90049, 90120-90129.
  {
    code: 90044,
    name: 'UPLINK_RATE_LIMITED',
    status: 429,
    en: 'The company has sent more uplinks this minute than its limit allows. Send again next minute.',
    de: 'Das Unternehmen hat in dieser Minute mehr Uplinks gesendet, als sein Limit erlaubt. Bitte in der nächsten Minute erneut senden.',
  },
  {
    code: 90045,
    name: 'SUPPORT_ACCESS_CONSENT_REQUIRED',
    status: 403,
    en: 'This client allows support access only with its consent. Ask for access; a main user of the client grants it.',
    de: 'Dieser Kunde erlaubt den Support-Zugriff nur mit seiner Zustimmung. Fragen Sie den Zugriff an; ein Hauptbenutzer des Kunden gewährt ihn.',
  },
  {
    code: 90046,
    name: 'NO_PERMISSION_TO_GRANT_SUPPORT_ACCESS',
    status: 403,
    en: 'Only main users and administrators of the company decide on support access.',
    de: 'Nur Hauptbenutzer und Administratoren des Unternehmens entscheiden über den Support-Zugriff.',
  },
  {
    code: 90047,
    name: 'CLIENT_NOT_DELETED',
    status: 409,
    en: 'The client is not deleted.',
    de: 'Der Kunde ist nicht gelöscht.',
  },
  // Device data retention (issue #29): 90090-90094.
  {
    code: 90090,
    name: 'DATA_RETENTION_ABOVE_CLIENT_LIMIT',
    status: 422,
    en: 'Device data cannot be kept longer than the limit set for this client.',
    de: 'Gerätedaten können nicht länger aufbewahrt werden, als die Grenze dieses Kunden erlaubt.',
  },
  {
    code: 90091,
    name: 'ROLLUP_RETENTION_TOO_SHORT',
    status: 422,
    en: 'Chart history must be kept at least as long as the device data, and can be limited only when the device data is.',
    de: 'Der Diagrammverlauf muss mindestens so lange aufbewahrt werden wie die Gerätedaten und kann nur begrenzt werden, wenn die Gerätedaten es sind.',
  },
] as const satisfies readonly ErrorDefinition[];

export type ErrorName = (typeof ERROR_DEFINITIONS)[number]['name'];
export type ErrorCode = (typeof ERROR_DEFINITIONS)[number]['code'];
type DefinitionByName = { [D in (typeof ERROR_DEFINITIONS)[number] as D['name']]: D };

const byCode = new Map<number, ErrorDefinition>(ERROR_DEFINITIONS.map((d) => [d.code, d]));

/** Every definition by its stable name, e.g. `ERRORS.DEVICE_NOT_FOUND.code === 10`. */
export const ERRORS = Object.fromEntries(ERROR_DEFINITIONS.map((d) => [d.name, d])) as DefinitionByName;

export function errorByCode(code: number): ErrorDefinition | undefined {
  return byCode.get(code);
}

export function errorByName(name: ErrorName): ErrorDefinition {
  return ERRORS[name];
}

/** The i18n key the console shows for an API code (spec section 8). */
export function apiResponseKey(code: number): `api.response-${number}` {
  return `api.response-${code}`;
}
