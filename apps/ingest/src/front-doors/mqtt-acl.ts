/** MQTT topics of a device: it publishes uplinks on its own up topic and reads its own down topic. */
export const upTopic = (uuid: string) => `devices/${uuid}/up`;
export const downTopic = (uuid: string) => `devices/${uuid}/down`;

const UP = /^devices\/([^/]+)\/up$/;

/** The device uuid an uplink topic names, or null for any other topic. */
export function uuidOfUpTopic(topic: string): string | null {
  return UP.exec(topic)?.[1] ?? null;
}

/**
 * `action`: EMQX sends "publish" / "subscribe"; mosquitto-go-auth sends `acc` 1 (read), 2 (write),
 * 4 (subscribe). A device (username = its uuid) may write only its up topic and read/subscribe
 * only its down topic.
 */
export function mqttAclAllows(request: { username: string; topic: string; action: unknown }): boolean {
  const { username, topic, action } = request;
  if (username === '' || username.includes('/') || username.includes('+') || username.includes('#'))
    return false;
  const write = action === 'publish' || action === 2 || action === '2';
  const read = action === 'subscribe' || action === 1 || action === 4 || action === '1' || action === '4';
  if (write) return topic === upTopic(username);
  if (read) return topic === downTopic(username);
  return false;
}
