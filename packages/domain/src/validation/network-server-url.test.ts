import { describe, expect, it } from 'vitest';
import { normaliseNetworkServerUrl } from './network-server-url';

describe('normaliseNetworkServerUrl', () => {
  it.each([
    ['http://chirpstack:8080', 'http://chirpstack:8080'],
    [' https://chirpstack.example.com:8080/ ', 'https://chirpstack.example.com:8080'],
    ['https://lns.example.com', 'https://lns.example.com'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
  ])('takes %j as %j', (input, expected) => {
    expect(normaliseNetworkServerUrl(input)).toBe(expected);
  });

  it.each([
    ['', 'empty'],
    ['chirpstack:8080', 'no scheme (read as the scheme chirpstack:)'],
    ['grpc://chirpstack:8080', 'another scheme'],
    ['http://chirpstack:8080/api', 'a path'],
    ['http://chirpstack:8080/?token=x', 'a query'],
    ['http://chirpstack:8080/#x', 'a fragment'],
    ['http://user:secret@chirpstack:8080', 'credentials'],
  ])('refuses %j (%s)', (input) => {
    expect(normaliseNetworkServerUrl(input)).toBeNull();
  });
});
