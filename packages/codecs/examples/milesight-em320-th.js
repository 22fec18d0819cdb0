/**
 * Payload codec for the Milesight EM320-TH temperature and humidity sensor, written for this
 * project from Milesight's published payload structure, in the style of the codecs in the TTN
 * device repository (one file serving ChirpStack v4, ChirpStack v3 and TTN v2).
 *
 * Uplink: a sequence of channels, each [channel id][channel type][data], little-endian.
 *   01 75  battery      uint8 %
 *   03 67  temperature  int16 0.1 °C
 *   04 68  humidity     uint8 0.5 %rH
 *   20 CE  history      uint32 unix time, int16 0.1 °C, uint8 0.5 %rH
 *   FF 01 / 09 / 0A / 0F / 16 / FE / 0B  device info (ipso, hardware, firmware, class, serial, reset, status)
 * Downlink: report_interval (seconds) -> FF 03 uint16; reboot -> FF 10 FF.
 */

// ChirpStack v4, The Things Stack v3 (TS013)
function decodeUplink(input) {
  try {
    return { data: milesightDecode(input.bytes) };
  } catch (e) {
    return { errors: [e.message] };
  }
}

// ChirpStack v3
function Decode(fPort, bytes) {
  return milesightDecode(bytes);
}

// The Things Network v2
function Decoder(bytes, port) {
  return milesightDecode(bytes);
}

function milesightDecode(bytes) {
  var decoded = {};
  for (var i = 0; i < bytes.length; ) {
    var channelId = bytes[i++];
    var channelType = bytes[i++];
    if (channelId === 0xff && channelType === 0x01) {
      decoded.ipso_version = 'v' + ((bytes[i] & 0xf0) >> 4) + '.' + (bytes[i] & 0x0f);
      i += 1;
    } else if (channelId === 0xff && channelType === 0x09) {
      decoded.hardware_version = 'v' + (bytes[i] & 0xff).toString(16) + '.' + ((bytes[i + 1] & 0xff) >> 4);
      i += 2;
    } else if (channelId === 0xff && channelType === 0x0a) {
      decoded.firmware_version =
        'v' + (bytes[i] & 0xff).toString(16) + '.' + (bytes[i + 1] & 0xff).toString(16);
      i += 2;
    } else if (channelId === 0xff && channelType === 0x0f) {
      decoded.lorawan_class = ['Class A', 'Class B', 'Class C', 'Class CtoB'][bytes[i]] || 'unknown';
      i += 1;
    } else if (channelId === 0xff && channelType === 0x16) {
      decoded.sn = hexString(bytes.slice(i, i + 8));
      i += 8;
    } else if (channelId === 0xff && channelType === 0xfe) {
      decoded.reset_event = 'reset';
      i += 1;
    } else if (channelId === 0xff && channelType === 0x0b) {
      decoded.device_status = 'on';
      i += 1;
    } else if (channelId === 0x01 && channelType === 0x75) {
      decoded.battery = readUInt8(bytes[i]);
      i += 1;
    } else if (channelId === 0x03 && channelType === 0x67) {
      decoded.temperature = readInt16LE(bytes.slice(i, i + 2)) / 10;
      i += 2;
    } else if (channelId === 0x04 && channelType === 0x68) {
      decoded.humidity = readUInt8(bytes[i]) / 2;
      i += 1;
    } else if (channelId === 0x20 && channelType === 0xce) {
      var point = {
        timestamp: readUInt32LE(bytes.slice(i, i + 4)),
        temperature: readInt16LE(bytes.slice(i + 4, i + 6)) / 10,
        humidity: readUInt8(bytes[i + 6]) / 2,
      };
      decoded.history = decoded.history || [];
      decoded.history.push(point);
      i += 7;
    } else {
      throw new Error('unknown channel 0x' + hexString([channelId]) + ' type 0x' + hexString([channelType]));
    }
  }
  return decoded;
}

// ChirpStack v4, The Things Stack v3 (TS013)
function encodeDownlink(input) {
  var bytes = [];
  if ('report_interval' in input.data) {
    var seconds = input.data.report_interval;
    if (typeof seconds !== 'number' || seconds < 60 || seconds > 64800) {
      return { errors: ['report_interval must be 60..64800 seconds'] };
    }
    bytes = bytes.concat([0xff, 0x03], writeUInt16LE(seconds));
  }
  if (input.data.reboot === 1 || input.data.reboot === true) {
    bytes = bytes.concat([0xff, 0x10, 0xff]);
  }
  if (bytes.length === 0) {
    return { errors: ['nothing to encode: set report_interval or reboot'] };
  }
  return { bytes: bytes, fPort: 85 };
}

function readUInt8(b) {
  return b & 0xff;
}

function readInt16LE(bytes) {
  var value = (bytes[1] << 8) + bytes[0];
  return value > 0x7fff ? value - 0x10000 : value;
}

function readUInt32LE(bytes) {
  var value = (bytes[3] << 24) | (bytes[2] << 16) | (bytes[1] << 8) | bytes[0];
  return value >>> 0;
}

function writeUInt16LE(value) {
  return [value & 0xff, (value >> 8) & 0xff];
}

function hexString(bytes) {
  var out = '';
  for (var i = 0; i < bytes.length; i++) {
    out += ('0' + (bytes[i] & 0xff).toString(16)).slice(-2);
  }
  return out;
}
