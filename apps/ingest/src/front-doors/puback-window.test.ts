import { describe, expect, it } from 'vitest';
import { PubackWindow } from './puback-window.js';

describe('PubackWindow', () => {
  it('sends PUBACKs in the order the uplinks came, each only once its log publish was accepted', () => {
    const sent: number[] = [];
    const window = new PubackWindow(10, (id) => sent.push(id));
    const handles = [1, 2, 3].map((id) => window.admit(id, () => {}));
    handles[1]!.accepted();
    handles[2]!.accepted();
    expect(sent).toEqual([]); // 2 and 3 are accepted but wait behind 1
    handles[0]!.accepted();
    expect(sent).toEqual([1, 2, 3]);
    expect(window.size).toBe(0);
  });

  it('lets the connection read on while the window has room and holds it back when full', () => {
    const window = new PubackWindow(3, () => {});
    const readOn: number[] = [];
    const handles = [1, 2, 3].map((id) => window.admit(id, () => readOn.push(id)));
    // The third uplink fills the window: the connection is not told to read the fourth.
    expect(readOn).toEqual([1, 2]);
    expect(window.size).toBe(3);
    handles[1]!.accepted(); // not the oldest: nothing leaves the window
    expect(readOn).toEqual([1, 2]);
    handles[0]!.accepted(); // 1 and 2 leave
    expect(readOn).toEqual([1, 2, 3]);
    expect(window.size).toBe(1);
  });

  it('forgets unacknowledged uplinks when the connection is gone and releases a held reader', () => {
    const sent: number[] = [];
    const window = new PubackWindow(1, (id) => sent.push(id));
    const released: number[] = [];
    const old = window.admit(7, () => released.push(7));
    expect(released).toEqual([]);
    window.reset();
    expect(released).toEqual([7]);
    old.accepted(); // accepted after the reconnect: its id belongs to the old connection
    expect(sent).toEqual([]);
    window.admit(7, () => {}).accepted();
    expect(sent).toEqual([7]);
  });

  it('refuses a window below 1', () => {
    expect(() => new PubackWindow(0, () => {})).toThrow(RangeError);
  });
});

describe('PubackWindow with QoS 0 uplinks', () => {
  it('counts them against the window but sends no PUBACK for them', () => {
    const sent: number[] = [];
    const window = new PubackWindow(2, (id) => sent.push(id));
    const readOn: string[] = [];
    const qos0 = window.admit(undefined, () => readOn.push('qos0'));
    const qos1 = window.admit(9, () => readOn.push('qos1'));
    expect(readOn).toEqual(['qos0']); // the QoS 0 uplink takes a place: the window is full
    qos0.accepted();
    expect(readOn).toEqual(['qos0', 'qos1']);
    qos1.accepted();
    expect(sent).toEqual([9]);
  });
});
