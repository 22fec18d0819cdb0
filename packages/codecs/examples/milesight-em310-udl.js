/**
 * Payload codec for the Milesight EM310-UDL ultrasonic distance sensor, written for this project
 * from Milesight's published payload structure, in the style of the vendor's public codecs
 * (including their habit of installing an Object.assign polyfill on the global Object).
 *
 * Uplink channels, little-endian:
 *   01 75  battery         uint8 %
 *   03 82  distance        uint16 mm
 *   04 00  position        uint8: 0 normal, 1 tilt
 *   FF 01 / 09 / 0A / 0F / 16 / FE / 0B  device info
 */

// ChirpStack v4, The Things Stack v3 (TS013)
function decodeUplink(input) {
  return { data: milesightDeviceDecode(input.bytes) };
}

// ChirpStack v3
function Decode(fPort, bytes) {
  return milesightDeviceDecode(bytes);
}

// The Things Network v2
function Decoder(bytes, port) {
  return milesightDeviceDecode(bytes);
}

function milesightDeviceDecode(bytes) {
  var decoded = {};
  for (var i = 0; i < bytes.length; ) {
    var channelId = bytes[i++];
    var channelType = bytes[i++];
    if (channelId === 0x01 && channelType === 0x75) {
      decoded.battery = bytes[i] & 0xff;
      i += 1;
    } else if (channelId === 0x03 && channelType === 0x82) {
      decoded.distance = readUInt16LE(bytes, i);
      i += 2;
    } else if (channelId === 0x04 && channelType === 0x00) {
      decoded.position = { 0: 'normal', 1: 'tilt' }[bytes[i]] || 'unknown';
      i += 1;
    } else if (channelId === 0xff && channelType === 0x01) {
      decoded = Object.assign(decoded, { ipso_version: 'v' + (bytes[i] >> 4) + '.' + (bytes[i] & 0x0f) });
      i += 1;
    } else if (channelId === 0xff && (channelType === 0x09 || channelType === 0x0a)) {
      var key = channelType === 0x09 ? 'hardware_version' : 'firmware_version';
      decoded[key] = 'v' + bytes[i].toString(16) + '.' + bytes[i + 1].toString(16);
      i += 2;
    } else if (channelId === 0xff && channelType === 0x16) {
      decoded.sn = bytes
        .slice(i, i + 8)
        .map(function (b) {
          return ('0' + b.toString(16)).slice(-2);
        })
        .join('');
      i += 8;
    } else if (channelId === 0xff && (channelType === 0x0f || channelType === 0xfe || channelType === 0x0b)) {
      i += 1;
    } else {
      break;
    }
  }
  return decoded;
}

function readUInt16LE(bytes, offset) {
  var view = new DataView(new Uint8Array(bytes.slice(offset, offset + 2)).buffer);
  return view.getUint16(0, true);
}

// Vendor codecs ship this polyfill unconditionally; in the sandbox it changes only this codec's realm.
Object.defineProperty(Object, 'assign', {
  enumerable: false,
  configurable: true,
  writable: true,
  value: function (target) {
    var to = Object(target);
    for (var i = 1; i < arguments.length; i++) {
      var source = arguments[i];
      if (source != null) {
        var keys = Object.keys(Object(source));
        for (var k = 0; k < keys.length; k++) {
          to[keys[k]] = source[keys[k]];
        }
      }
    }
    return to;
  },
});
